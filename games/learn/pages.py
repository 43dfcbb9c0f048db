"""The learning pages: the rules for players, the first hand and its coach."""

from django.shortcuts import render

from games.learn.examples import EXAMPLES, OKEY


def rules(request):
    """The rules for players (docs/rules.md is the contract; this is its tour, with tiles)."""
    return render(request, "learn/rules.html", {"ex": EXAMPLES, "okey": OKEY})
