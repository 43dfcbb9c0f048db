"""Dealing: the first hand when the countdown ends, the next one after a pause, the game's end."""

from django.db import transaction
from django.utils import timezone

from games import engine
from games.models import Game, Hand, Table

from . import seeds
from .ratings import profiles_update
from .tables import table_bump, table_lock

# Pause between a hand's end and the next deal, so that everyone can read the result.
NEXT_HAND_SECONDS = 12
NEXT_HAND_AFTER_VOID_SECONDS = 4


def hand_deal(game: Game, options: engine.TableOptions, first_seat: int, number: int) -> Hand:
    """Deal hand ``number`` (caller holds the game lock). Only the commitment is public."""
    seed = seeds.hand_seed(number)
    state = engine.deal(seed, options, first_seat)
    return Hand.objects.create(
        game=game,
        number=number,
        seed=seed,
        commitment=engine.commitment(seed),
        first_seat=first_seat,
        state=engine.hand_to_dict(state),
        turn_started=timezone.now(),
    )


def game_start(*, table_id, expected_version) -> bool:
    """Deal the first hand when the start countdown ends. A late or repeated call does nothing."""
    with transaction.atomic():
        game, table = table_lock(table_id)
        if game.version != expected_version or table.status != Table.Status.STARTING:
            return False
        options = engine.TableOptions.from_dict(table.options)
        first = seeds.first_seat(options.seats)
        game.state = engine.game_to_dict(engine.game_new(options, first))
        game.status, game.started = Game.Status.PLAYING, timezone.now()
        hand_deal(game, options, first, number=1)
        table.status = Table.Status.PLAYING
        table.save(update_fields=["status"])
        table_bump(game, lobby=True)
        return True


def hand_next(*, table_id, expected_version) -> bool:
    """Deal the next hand after the pause. Does nothing if the table moved on meanwhile."""
    with transaction.atomic():
        game, table = table_lock(table_id)
        if game.version != expected_version or game.status != Game.Status.PLAYING:
            return False
        last = game.hands.order_by("-number").first()
        state = engine.game_from_dict(game.state)
        if last is None or not last.over or state.over:
            return False
        hand_deal(game, state.options, state.next_first_seat, number=last.number + 1)
        table_bump(game)
        return True


def game_finish(game: Game, table: Table, state) -> None:
    """Record places and rating points (caller holds the lock and bumps the version)."""
    places = engine.game_places(state)
    points = engine.game_rating_points(state)
    game.results = {
        "places": list(places),
        "points": list(points),
        "counts": list(state.counts),
        "hands": state.hands_played,
    }
    if state.options.mode == "esli":
        game.results["teams"] = list(engine.team_totals(state))
    game.status, game.ended = Game.Status.OVER, timezone.now()
    table.status = Table.Status.FINISHED
    table.save(update_fields=["status"])
    if state.hands_played:  # only staff can end a game before its first hand: nothing to rate
        profiles_update(game, table, places, points, state.counts)
