"""Dealing: the first hand when the countdown ends, the next one after a pause, the game's end."""

from django.db import transaction
from django.utils import timezone

from games import engine
from games.models import Game, Hand, Table

from . import seeds
from .tables import seats_fill_with_bots, table_bump, table_lock

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
        if table.seats.filter(user__isnull=True, is_bot=False).exists():
            # a seat emptied during the countdown (an account deleted): a bot takes it if the
            # table allows, else the start is called off and the manager may start again
            if table.policy.bots_fill:
                seats_fill_with_bots(table)
            else:
                table.status, table.start_at = Table.Status.OPEN, None
                table.save(update_fields=["status", "start_at"])
                table_bump(game, lobby=True)
                return False
        options = table.rules
        first = seeds.first_seat(options.seats)
        game.state = engine.game_to_dict(engine.game_new(options, first))
        game.status, game.started = Game.Status.PLAYING, timezone.now()
        hand = hand_deal(game, options, first, number=1)
        table.status = Table.Status.PLAYING
        table.save(update_fields=["status"])
        table_bump(game, lobby=True, hand=hand)
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
        hand = hand_deal(game, state.options, state.next_first_seat, number=last.number + 1)
        table_bump(game, hand=hand)
        return True


def game_finish(game: Game, table: Table, state, now=None) -> None:
    """The last hand has ended (caller holds the lock and bumps the version): the game is over.
    Its results and the players' profiles follow at once in a task (games.services.results),
    which the bump's deadline sends."""
    game.status, game.ended = Game.Status.OVER, now or timezone.now()
    game.results = None
    table.status = Table.Status.FINISHED
    table.save(update_fields=["status"])
