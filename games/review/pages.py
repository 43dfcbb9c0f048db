"""After a hand: its review, step by step, and the check of its deal against the revealed seed."""

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import engine
from games.labels import move_label
from games.models import Hand, Move
from games.names import player_name
from games.review.reads import review_allowed, review_hand, review_view
from games.review.services import hand_review_make
from games.table.privacy import table_open_to
from games.table.reads import seat_rows
from games.variants import variant_for


def _seat_named(seat) -> str:
    """A seat's name as the table shows it: the person's, else "Bot 3" (not a bare "3")."""
    if seat.user is not None:
        return player_name(seat.user)
    return _("Bot %(n)d") % {"n": seat.index + 1}


@require_GET
def hand_verify(request, table_id, number):
    """After a hand: rebuild its deal from the revealed seed and check it against everything."""
    hand = get_object_or_404(
        Hand.objects.select_related("game__table"), game__table_id=table_id, number=number
    )
    table = hand.game.table
    if not table_open_to(table, request.user):
        raise Http404
    ctx = {"table": table, "hand": hand, "over": hand.over}
    if hand.over:
        seed = bytes(hand.seed)
        options, rules = table.rules, table.engine_variant
        moves = [m.as_engine_dict() for m in Move.objects.filter(hand=hand).order_by("seq")]
        dealt = rules.deal(seed, options, hand.first_seat)
        final = rules.hand_from_dict(hand.state)
        seats = seat_rows(table)
        ctx.update(
            seed=seed.hex(),
            computed=engine.commitment(seed),
            commitment_ok=engine.commitment(seed) == hand.commitment,
            deal_ok=rules.verify_deal(seed, hand.commitment, final, moves),
            indicator=engine.format_tile(dealt.indicator),
            okey=engine.format_tile(dealt.okey),
            racks=[
                {
                    "name": _seat_named(s),
                    "tiles": [engine.format_tile(t) for t in dealt.racks[s.index]],
                }
                for s in seats
            ],
            stock=[engine.format_tile(t) for t in reversed(dealt.stock)],
            moves=[
                {
                    "seq": m["seq"],
                    "name": _seat_named(seats[m["seat"]]),
                    "kind": move_label(m["kind"]),
                    "tile": m.get("tile", ""),
                }
                for m in (dict(d, seq=i) for i, d in enumerate(moves, start=1))
            ],
            table_url=reverse("games:table", args=[table.pk]),
        )
    return render(request, "games/verify.html", ctx)


def _step_of(request) -> int | None:
    try:
        return int(request.GET.get("step", 0))
    except ValueError:
        return None


@require_GET
def hand_review(request, table_id, number):
    """Step through a finished hand with every rack shown (the seed is revealed by then)."""
    hand = review_hand(table_id, number)
    if hand is None:
        raise Http404
    if not hand.over:
        message = _("The review opens once the hand is over.")
    elif not variant_for(hand.game.table).review:
        message = _("Hands of this game have no review yet: its deal can still be checked.")
    elif not review_allowed(hand, request.user):
        message = _(
            "This table is private: only its players, its manager and the people invited to it "
            "may open its reviews."
        )
    else:
        # made when the hand ended; made here if that task was lost
        review = hand_review_make(hand_id=hand.pk)
        view = review_view(hand, review, _step_of(request), request.user)
        return render(request, "games/review.html", {"view": view})
    ctx = {"message": message, "table_url": reverse("games:table", args=[table_id])}
    return render(request, "games/review_refused.html", ctx, status=403)
