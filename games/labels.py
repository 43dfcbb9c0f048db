"""The words for game things, in the active language: a move, a finish, a mode."""

from django.utils.translation import gettext as _


def move_label(kind: str) -> str:
    return {
        "draw": _("drew from the stock"),
        "take": _("took the left discard"),
        "discard": _("discarded"),
        "finish": _("finished with"),
        "show": _("showed the indicator"),
        "pairs": _("declared pairs"),
        "take_indicator": _("took the indicator"),
    }.get(kind, kind)


def finish_label(kind: str | None) -> str:
    return {
        "normal": _("normal finish"),
        "okey": _("finished with the okey"),
        "pairs": _("finished with pairs"),
        "pairs+okey": _("finished with pairs and the okey"),
    }.get(kind or "", "")


def mode_label(variant: str) -> str:
    """A game's name (Table.variant, engine.variant(name))."""
    return {
        "esli": _("Eşli Okey (partners)"),
        "101": _("Okey 101"),
        "esli101": _("Eşli 101 (partners)"),
    }.get(variant, _("Düz Okey"))
