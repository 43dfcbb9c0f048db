from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from .models import DISPLAY_NAME_MAX, LANGUAGE_CHOICES, Profile, display_name_taken

DISPLAY_NAME_HELP = _("Shown to other players at the table. 2 to 30 characters.")


def display_name_clean(value: str, exclude_user_id=None) -> str:
    name = " ".join(value.split())
    if len(name) < 2:
        raise forms.ValidationError(_("A display name needs at least 2 characters."))
    if display_name_taken(name, exclude_user_id=exclude_user_id):
        raise forms.ValidationError(_("Another player already uses this name."))
    return name


class SignupForm(forms.Form):
    """Extra fields on allauth's sign-up form (ACCOUNT_SIGNUP_FORM_CLASS)."""

    display_name = forms.CharField(
        label=_("Display name"),
        max_length=DISPLAY_NAME_MAX,
        help_text=DISPLAY_NAME_HELP,
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )

    def clean_display_name(self):
        return display_name_clean(self.cleaned_data["display_name"])

    def signup(self, request, user):
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
