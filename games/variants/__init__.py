"""The games the site offers, each as one record (``SiteVariant``): the engine's rules
(``engine.variant(name)``), the family whose package shows its tables (games/variants/<family>/,
templates/games/table/<family>/), and its capabilities. The rooms ask ``variant_for(table)``
and never test a variant's name.

Where a variant lives: its rules in games/engine (okey101/ for 101), its site-side views and
moves in its family's package here, its templates under templates/games/table/<family>/, its
name and label in ``VARIANTS`` below (and ``Table.Variant``).
"""

from games import engine
from games.variants.family import Family, SiteVariant
from games.variants.okey import FAMILY as OKEY
from games.variants.okey101 import FAMILY as OKEY101

VARIANTS = {
    v.name: v
    for v in (
        SiteVariant("duz", engine.variant("duz"), OKEY, hints=True, review=True),
        SiteVariant("esli", engine.variant("esli"), OKEY, hints=True, review=True),
        # no hints or review for 101 yet: the engine's judge plays Düz Okey only
        SiteVariant("101", engine.variant("101"), OKEY101, rating="101"),
        SiteVariant("esli101", engine.variant("esli101"), OKEY101, rating="101"),
    )
}  # fmt: skip

FAMILIES = {f.name: f for f in {v.family for v in VARIANTS.values()}}


def site_variant(name: str) -> SiteVariant:
    """The game called ``name`` (Table.variant); ValueError for one the site does not offer."""
    found = VARIANTS.get(name)
    if found is None:
        raise ValueError(f"the site offers no game {name!r}")
    return found


def variant_for(table) -> SiteVariant:
    return site_variant(table.variant)


def family_named(name: str) -> Family:
    return FAMILIES[name]


__all__ = ["VARIANTS", "Family", "SiteVariant", "family_named", "site_variant", "variant_for"]
