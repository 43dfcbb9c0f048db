"""A table's life, every change of its status in one place:

    open --Start--> starting (the 10-second countdown) --deal--> playing, hand after hand
         --last hand ends--> finished (the game over, its results follow) ; closed (by staff,
         or when the last person leaves before the start).

The functions that take ``game`` and ``table`` run inside the caller's transaction, with the
Game row locked (``table_lock``); the caller bumps the version once (``table_bump``), which also
works out the table's next deadline (games.table.deadlines). ``game_start`` and
``hand_next`` are whole services: the deadlines ``start`` and ``next`` call them, with the
version the table had when they were set, and they do nothing if it has moved on.

A hand ends in two ways, both through ``_hand_close`` and the engine's ``game_apply_hand``: a
move ends it (``hand_end``: a finish, or the stock running out), or staff stop it
(``hand_stop``: the engine's ``hand_void``). A hand that staff stop keeps, as its stored state,
the state its moves made: that state is what the public move log replays to, and the hand's
verification page (games.review.pages.hand_verify) and the staff replay (games.staff.replay) check exactly
that; the void lives on the Hand row (over, ended, a void result flagged ``"staff": true``) and
in the game's counts.
"""

from dataclasses import replace
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import engine
from games.errors import ServiceError
from games.models import Game, Hand, Seat, Table
from games.policy import options_stored, table_choices, table_variant
from games.table import seeds
from games.table.changes import table_bump, table_lock, version_check
from games.table.create import game_running_check, players_running_check
from games.table.deadlines import START_SECONDS
from games.table.reservations import reserved_refusal, seats_reserved
from games.table.results import results_write
from games.table.seeds import hand_seed


def table_start(*, table_id, user, expected_version=None) -> int:
    """The manager's Start: the deal follows START_SECONDS later (the ``start`` deadline)."""
    with transaction.atomic():
        game, table = table_lock(table_id)
        version_check(game, expected_version)
        signed_in = user is not None and getattr(user, "is_authenticated", False)
        if not signed_in or user.pk != table.manager_id:
            raise ServiceError("not_manager", _("Only the table manager can start the game."))
        if table.status != Table.Status.OPEN:
            raise ServiceError("not_open", _("This game has already started."))
        game_running_check(user, table)
        players_running_check(table)
        return countdown_begin(game, table)


def seats_fill_with_bots(table: Table) -> int:
    """Bots take the table's empty seats (caller holds the lock), except seats that an invite
    keeps for a person; how many they took."""
    empty = table.seats.filter(user__isnull=True, is_bot=False)
    return empty.exclude(index__in=list(seats_reserved(table))).update(is_bot=True, away=False)


def countdown_begin(game: Game, table: Table, *, bots_now: bool = True) -> int:
    """Start the 10-second countdown (caller holds the lock and has checked who may). Empty
    seats get bots when the table lets them (option bots_fill), else the start is refused. The
    deal is the ``start`` deadline's task, or the sweep's if that is lost. ``bots_now=False``
    (quick play): the empty seats stay open to people during the countdown, and the deal gives
    the ones still empty to bots."""
    refusal = reserved_refusal(table)  # invited players are waited for, not replaced by bots
    if refusal is not None:
        raise refusal
    if table.policy.bots_fill:
        if bots_now:
            seats_fill_with_bots(table)
    elif table.seats.filter(user__isnull=True, is_bot=False).exists():
        raise ServiceError("seats_empty", _("Every seat must be taken before the start."))
    table.status = Table.Status.STARTING
    table.start_at = timezone.now() + timedelta(seconds=START_SECONDS)
    table.save(update_fields=["status", "start_at"])
    return table_bump(game, lobby=True)


def table_seated_start(*, options: dict, players: list, tournament_id=None) -> Table:
    """A table seated at once by ``players`` in seat order (a user, or None for a bot), its
    start countdown begun: a table that an arena's pairing made (games.arena), which nobody
    opened by hand, so no account's table limits apply; its manager is the first person seated.
    ``options`` as a table's (games.policy), checked here."""
    try:
        rules, policy = table_choices(options)
    except (engine.OptionError, TypeError) as e:
        raise ServiceError("bad_options", str(e)) from None
    people = [u for u in players if u is not None]
    table = Table.objects.create(
        manager=people[0],
        variant=table_variant(rules),
        options=options_stored(rules, policy),
        tournament_id=tournament_id,
    )
    game = Game.objects.create(table=table)
    Seat.objects.bulk_create(
        Seat(table=table, index=i, user=u, is_bot=u is None) for i, u in enumerate(players)
    )
    countdown_begin(game, table)
    return table


def countdown_stop(table: Table) -> None:
    """Call the start off: the table takes players again and the manager may start again."""
    table.status, table.start_at = Table.Status.OPEN, None
    table.save(update_fields=["status", "start_at"])


def hand_deal(
    game: Game, rules: engine.Variant, options, first_seat: int, number: int, *, lesson=False
) -> Hand:
    """Deal hand ``number`` of the game ``rules`` plays by (the table's ``engine_variant``) with
    its ``options`` (caller holds the game lock). Only the commitment is public. ``lesson``: the
    first hand's fixed deal (seeds.FIRST_HAND_SEED)."""
    seed = hand_seed(number, lesson=lesson)
    state = rules.deal(seed, options, first_seat)
    return Hand.objects.create(
        game=game,
        number=number,
        seed=seed,
        commitment=engine.commitment(seed),
        first_seat=first_seat,
        state=rules.hand_to_dict(state),
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
                countdown_stop(table)
                table_bump(game, lobby=True)
                return False
        options, rules = table.rules, table.engine_variant
        lesson = table.policy.lesson
        first = seeds.first_seat(options.seats, lesson=lesson)
        game.state = rules.game_to_dict(rules.game_new(options, first))
        game.status, game.started = Game.Status.PLAYING, timezone.now()
        hand = hand_deal(game, rules, options, first, number=1, lesson=lesson)
        table.status = Table.Status.PLAYING
        table.save(update_fields=["status"])
        table_bump(game, lobby=True, hand=hand)
        return True


def hand_running(game: Game) -> Hand | None:
    """The hand being played, if any (none before the deal, between hands, after the game)."""
    if game.status != Game.Status.PLAYING:
        return None
    hand = game.latest_hand()
    return hand if hand is not None and not hand.over else None


def _hand_close(rules: engine.Variant, game: Game, hand: Hand, ended, now):
    """Mark ``hand`` over with the result of ``ended`` (a state whose phase is "over") and count
    it in the game (both of the game ``rules`` plays by); the caller writes the hand's row and
    bumps the version. The game's state after it."""
    hand.over, hand.ended = True, now
    hand.result = rules.result_to_dict(ended.result)
    state = rules.game_apply_hand(rules.game_from_dict(game.state), ended.result)
    game.state = rules.game_to_dict(state)
    return state


def hand_end(game: Game, table: Table, hand: Hand, new_state, now) -> bool:
    """A move ended the hand (a finish, or the stock ran out): apply it to the game. True when
    that was the game's last hand: the game is over and its results follow (the ``end``
    deadline); otherwise the next deal follows after a pause (the ``next`` deadline). The
    hand's review is made only when someone asks for it (games.review.services)."""
    state = _hand_close(table.engine_variant, game, hand, new_state, now)
    if state.over:
        game_finish(game, table, state, now)
        return True
    return False


def hand_stop(game: Game, hand: Hand, now, *, staff: bool = True):
    """Staff (or, with ``staff`` False, the last person leaving the game) stop the running
    ``hand`` as void (the engine's ``hand_void``): nothing scores and the same player starts the
    next deal. The stored state stays what its moves made (see the module's notes). The game
    state after it; a void hand never ends a game."""
    rules = game.table.engine_variant
    ended = rules.hand_void(rules.hand_from_dict(hand.state))
    state = _hand_close(rules, game, hand, ended, now)
    hand.result["staff" if staff else "left"] = True  # the table and the replay say who stopped it
    hand.save(update_fields=["over", "ended", "result"])
    return state


def hand_next(*, table_id, expected_version) -> bool:
    """Deal the next hand after the pause. Does nothing if the table moved on meanwhile."""
    with transaction.atomic():
        game, table = table_lock(table_id)
        if game.version != expected_version or game.status != Game.Status.PLAYING:
            return False
        last = game.latest_hand()
        rules = table.engine_variant
        state = rules.game_from_dict(game.state)
        if last is None or not last.over or state.over:
            return False
        hand = hand_deal(
            game,
            rules,
            state.options,
            state.next_first_seat,
            number=last.number + 1,
            lesson=table.policy.lesson,
        )
        table_bump(game, hand=hand)
        return True


def game_finish(game: Game, table: Table, state, now=None) -> None:
    """The last hand has ended (caller holds the lock and bumps the version): the game is over.
    Its results and the players' profiles follow at once in a task (games.table.results),
    which the bump's deadline (``end``) sends."""
    game.status, game.ended = Game.Status.OVER, now or timezone.now()
    game.results = None
    table.status = Table.Status.FINISHED
    table.save(update_fields=["status"])


def game_stop(game: Game, table: Table, now, *, staff: bool = False) -> Hand | None:
    """End the game now (staff, or the last person left it): a running hand is stopped as void,
    then the results are written at once, over the hands played so far. The hand stopped, if
    any."""
    rules = table.engine_variant
    hand = hand_running(game)
    if hand is not None:
        state = hand_stop(game, hand, now, staff=staff)
    else:
        state = rules.game_from_dict(game.state)
    state = replace(state, over=True)
    game.state = rules.game_to_dict(state)
    game_finish(game, table, state, now)
    results_write(game, table)
    if staff:
        game.results["staff"] = True  # the page says who ended it
    return hand


def table_shut(game: Game, table: Table, now) -> Hand | None:
    """Close the table for good (staff): a running hand is stopped as void, the game is over
    and never rated (``game_results_record`` passes a closed table by), and nothing more
    happens at the table (no deadline). The hand stopped, if any."""
    hand = hand_running(game)
    if hand is not None:
        hand_stop(game, hand, now)
    if game.status != Game.Status.OVER:
        game.status, game.ended = Game.Status.OVER, now
    table.status, table.start_at = Table.Status.CLOSED, None
    table.save(update_fields=["status", "start_at"])
    return hand
