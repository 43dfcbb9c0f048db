"""What staff's sanctions bar an account from (the sanctions are written by games.social's
staff services): a suspended account cannot sit, chat, follow or invite; a muted one cannot
chat. Every room that lets a player do one of those asks here, the table included, so this
module sits below the rooms and imports none."""

from django.utils import formats, timezone
from django.utils.functional import lazy
from django.utils.translation import gettext as _

from games.errors import ServiceError
from games.models import Sanction


def sanction_active(user, kind: str, *, now=None) -> Sanction | None:
    """The ``kind`` sanction on ``user`` in force now that runs longest, or None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return (
        Sanction.objects.filter(
            user_id=user.pk, kind=kind, lifted__isnull=True, until__gt=now or timezone.now()
        )
        .order_by("-until")
        .first()
    )


def user_is_suspended(user) -> bool:
    """Whether staff have suspended ``user``'s account now (games.social.blocks re-exports it:
    the arena asks there)."""
    return sanction_active(user, Sanction.Kind.SUSPEND) is not None


def suspended_ids(user_ids, *, now=None) -> set[int]:
    """Which of ``user_ids`` staff have suspended now, in one query (a pairing's whole pool)."""
    return set(
        Sanction.objects.filter(
            user_id__in=list(user_ids),
            kind=Sanction.Kind.SUSPEND,
            lifted__isnull=True,
            until__gt=now or timezone.now(),
        ).values_list("user_id", flat=True)
    )


def _until(sanction: Sanction) -> str:
    return formats.date_format(timezone.localtime(sanction.until), "DATETIME_FORMAT")


def _suspended_words(sanction: Sanction) -> str:
    return _("Your account is suspended until %(until)s: %(reason)s") % {
        "until": _until(sanction),
        "reason": sanction.reason,
    }


def _muted_words(sanction: Sanction) -> str:
    return _("Staff muted your chat until %(until)s: %(reason)s") % {
        "until": _until(sanction),
        "reason": sanction.reason,
    }


# Worded when shown, in the language of the page that shows it (a socket's refusal is made in
# a database thread, in the site's default language, and shown in its page's)
_said = lazy(lambda words, sanction: words(sanction), str)


def suspension_refusal(user) -> ServiceError | None:
    """Why ``user`` may not sit, follow or invite now: their account is suspended."""
    suspension = sanction_active(user, Sanction.Kind.SUSPEND)
    if suspension is None:
        return None
    return ServiceError("suspended", _said(_suspended_words, suspension))


def chat_refusal(user) -> ServiceError | None:
    """Why ``user`` may not chat now: suspended, or their chat muted by staff."""
    refusal = suspension_refusal(user)
    if refusal is not None:
        return refusal
    mute = sanction_active(user, Sanction.Kind.MUTE)
    if mute is None:
        return None
    return ServiceError("muted", _said(_muted_words, mute))
