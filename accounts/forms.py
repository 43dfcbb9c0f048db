from allauth.account import forms as allauth_forms
from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from .models import (
    DISPLAY_NAME_MAX,
    LANGUAGE_CHOICES,
    Profile,
    display_name_hidden_characters,
    display_name_normal,
    display_name_taken,
)

DISPLAY_NAME_HELP = _("Shown to other players at the table. 2 to 30 characters.")


def display_name_clean(value: str, exclude_user_id=None) -> str:
    if display_name_hidden_characters(value):
        raise forms.ValidationError(
            _("A display name may not hold invisible or text-direction characters.")
        )
    name = display_name_normal(value)
    if len(name) > DISPLAY_NAME_MAX:
        raise forms.ValidationError(
            _("A display name may be at most %(n)d characters.") % {"n": DISPLAY_NAME_MAX}
        )
    if len(name) < 2:
        raise forms.ValidationError(_("A display name needs at least 2 characters."))
    if display_name_taken(name, exclude_user_id=exclude_user_id):
        raise forms.ValidationError(_("Another player already uses this name."))
    return name


def labels_set(form, labels: dict) -> None:
    # allauth's Turkish says "Parola" in some labels and "Şifre" in others; we say "Şifre".
    for name, label in labels.items():
        if name in form.fields:
            form.fields[name].label = label
            form.fields[name].widget.attrs["placeholder"] = label


class LoginForm(allauth_forms.LoginForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        labels_set(self, {"password": _("Password")})
        # allauth puts its "Forgot your password?" link under the field: the page has its own
        # beside the button, and showed it twice
        self.fields["password"].help_text = ""


class ResetPasswordKeyForm(allauth_forms.ResetPasswordKeyForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        labels_set(self, {"password1": _("New password"), "password2": _("New password (again)")})


class SignupForm(allauth_forms.SignupForm):
    """allauth's sign-up form with the player's display name (ACCOUNT_FORMS["signup"])."""

    field_order = ["email", "display_name", "password1", "password2"]
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=DISPLAY_NAME_MAX,
        help_text=DISPLAY_NAME_HELP,
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        labels_set(self, {"password1": _("Password"), "password2": _("Password (again)")})

    def clean_display_name(self):
        return display_name_clean(self.cleaned_data["display_name"])

    def signup(self, request, user):  # called by allauth once the user is saved
        profile = user.profile
        profile.display_name = self.cleaned_data["display_name"]
        language = (get_language() or "tr")[:2]
        profile.language = language if language in dict(LANGUAGE_CHOICES) else "tr"
        profile.save(update_fields=["display_name", "language"])


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ["display_name", "language"]
        help_texts = {
            "display_name": DISPLAY_NAME_HELP,
            "language": _("The language of the site and of the e-mails we send you."),
        }
        widgets = {"display_name": forms.TextInput(attrs={"autocomplete": "nickname"})}

    def clean_display_name(self):
        return display_name_clean(
            self.cleaned_data["display_name"], exclude_user_id=self.instance.user_id
        )
