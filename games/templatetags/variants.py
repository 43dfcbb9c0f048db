"""Which template shows a part of a table: each family of variants has its own
(templates/games/table/<family>/), and a view names its family (games.variants)."""

from django import template

register = template.Library()


@register.filter
def part(family: str, name: str) -> str:
    """``{% include board.family|part:"board" %}``: games/table/okey/board.html."""
    return f"games/table/{family}/{name}.html"
