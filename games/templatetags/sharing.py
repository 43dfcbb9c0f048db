"""What a shared link to a page says of it (templates/includes/meta.html): a table's variant and
how many of its seats are taken, e.g. "Düz Okey · 2/4 seats taken"."""

from django import template
from django.utils.translation import gettext as _

from games.labels import mode_label

register = template.Library()


@register.simple_tag
def table_summary(board) -> str:
    """``board`` is the table's public view (games.table.reads.BoardView)."""
    taken = sum(1 for s in board.seats if not s.empty)
    seats = _("%(a)s/%(b)s seats taken") % {"a": taken, "b": board.n}  # as the lobby says it
    return f"{mode_label(board.mode)} · {seats}"
