"""The staff replay of a hand, move by move: engine states rebuilt from the seed and the move log.

Read-only, for staff with view permission on hands, and only for hands that are over: before
that the racks and the stock are as secret as the seed. Each step is the state after that many
moves; step 0 is the deal.
"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from games import engine
from games.labels import move_label
from games.models import Hand
from games.names import player_name
from games.table.reads import seat_rows


def _step_of(request, last: int) -> int:
    try:
        step = int(request.GET.get("step", last))
    except ValueError:
        step = last
    return max(0, min(step, last))


def replay_states(hand: Hand, rules: engine.Variant, options, moves: list[dict], upto: int):
    """The deal and the state after each of the first ``upto`` moves, of the game ``rules``
    plays by."""
    state = rules.deal(bytes(hand.seed), options, hand.first_seat)
    states = [state]
    for m in moves[:upto]:
        state = rules.apply(state, rules.move_from_dict(m))
        states.append(state)
    return states


def hand_replay_view(modeladmin, request, hand_id):
    hand = get_object_or_404(Hand.objects.select_related("game__table"), pk=hand_id)
    if not modeladmin.has_view_permission(request, hand):
        raise PermissionDenied
    change_url = reverse("admin:games_hand_change", args=[hand.pk])
    if not hand.over:
        messages.warning(request, _("The replay opens once the hand is over."))
        return redirect(change_url)
    table = hand.game.table
    options, rules = table.rules, table.engine_variant
    rows = list(hand.moves.select_related("user").order_by("seq"))
    moves = [m.as_engine_dict() for m in rows]
    step = _step_of(request, len(moves))
    # the whole log, to check it against the stored state; the page shows ``step``
    states = replay_states(hand, rules, options, moves, len(moves))
    state = states[step]
    seats = seat_rows(table)
    names = {s.index: player_name(s.user) if s.user else "" for s in seats}
    fmt = engine.format_tile
    # what every viewer saw at this step: who showed, who went for pairs, the melds laid (101)
    public = rules.view(state, None)
    declared = public.get("declared") or [
        i in public.get("pairs_declared", ()) for i in range(state.n)
    ]
    ctx = {
        **modeladmin.admin_site.each_context(request),
        "title": _("Replay of hand %(n)d at table %(t)d") % {"n": hand.number, "t": table.pk},
        "opts": Hand._meta,
        "hand": hand,
        "table": table,
        "change_url": change_url,
        "seed": bytes(hand.seed).hex(),
        "commitment_ok": engine.commitment(bytes(hand.seed)) == hand.commitment,
        "log_matches": states[-1] == rules.hand_from_dict(hand.state),
        "staff_void": bool((hand.result or {}).get("staff")),
        "step": step,
        "last": len(moves),
        "previous": step - 1 if step > 0 else None,
        "next": step + 1 if step < len(moves) else None,
        "indicator": fmt(state.indicator),
        "okey": fmt(state.okey),
        "stock": [fmt(t) for t in reversed(state.stock)],  # the next tile drawn first
        "phase": {"draw": _("to draw"), "discard": _("to discard"), "play": _("to play")}.get(
            state.phase, ""
        ),
        "turn": state.turn + 1,
        "over": state.phase == "over",
        "seats": [
            {
                "number": i + 1,
                "name": names.get(i, ""),
                "rack": [fmt(t) for t in state.racks[i]],
                "pile": [fmt(t) for t in state.discards[i]],
                "is_turn": state.phase != "over" and state.turn == i,
                "showed": public.get("shown_by") == i,
                "pairs": bool(declared[i]),
                "melds": [m["tiles"] for m in public.get("table", ()) if m["owner"] == i],
            }
            for i in range(state.n)
        ],
        "result": rules.result_to_dict(state.result) if state.result else None,
        "moves": [
            {
                "seq": m.seq,
                "seat": m.seat + 1,
                "name": names.get(m.seat, ""),
                "kind": move_label(m.kind),
                "tile": m.tile,
                "auto": m.auto,
                "current": m.seq == step,
            }
            for m in rows
        ],
    }
    return TemplateResponse(request, "admin/games/hand_replay.html", ctx)
