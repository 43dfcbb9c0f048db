"""move_submit: the one path by which every move (socket, POST, timeout, bot) changes a hand."""

import copy
from functools import partial

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import engine, metrics
from games.errors import ServiceError, engine_error
from games.models import Game, Move, Seat
from games.table.changes import table_version_next, version_check
from games.table.lifecycle import hand_end
from games.table.publish import move_publish
from games.table.reads import MoveOutcome
from games.table.store import move_by_key, move_by_table_key, move_rows_lock, move_save
from games.variants import variant_for


def _malformed(detail=None) -> ServiceError:
    return ServiceError("malformed", detail or _("That message is not a move."))


def _detail(whole: dict) -> dict | None:
    """What a move carries beyond its kind, seat and tile (101's groups, meld, side), in the
    engine's own notation, for the Move row: its replay reads it back."""
    return {k: v for k, v in whole.items() if k not in ("kind", "seat", "tile")} or None


def move_version(value) -> int | None:
    """The table version a player's move names, from a socket's JSON or a form: an int, or a
    string of ASCII digits (``"²".isdigit()`` holds, and ``int`` refuses it); None for anything
    else, which the edges refuse: ``move_submit`` reads None as "do not check", which only the
    server's own moves may ask for."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


def _key_clean(key):
    if key is None or key == "":
        return None
    if not isinstance(key, str) or len(key) > 64:
        raise _malformed(_("The move's key is not valid."))
    return key


def _seat_resolve(seats: list[Seat], user, seat) -> Seat:
    """The mover's seat among the table's ``seats`` (read once per move: the deadline that the
    move sets needs the next seat too)."""
    if user is not None:
        row = None
        if getattr(user, "is_authenticated", False):
            row = next((s for s in seats if s.user_id == user.pk), None)
        if row is None:
            raise ServiceError("not_seated", _("You are not sitting at this table."))
        if seat is not None and seat != row.index:
            raise ServiceError("not_your_seat", _("That is not your seat."))
        return row
    row = None
    if isinstance(seat, int) and not isinstance(seat, bool):
        row = next((s for s in seats if s.index == seat), None)
    if row is None:
        raise ServiceError("no_seat", _("There is no such seat at this table."))
    return row


def _outcome_of(move: Move) -> MoveOutcome:
    hand = move.hand
    last = hand.over and move.seq == hand.version
    return MoveOutcome(
        version=move.version,
        seq=move.seq,
        hand_number=hand.number,
        hand_over=last,
        game_over=last and hand.game.status == Game.Status.OVER,
        duplicate=True,
    )


def move_submit(
    *,
    table_id,
    user=None,
    seat=None,
    move,
    expected_version,
    idempotency_key=None,
    auto=False,
) -> MoveOutcome:
    """Apply one move at most once, and return what it committed; its pages hear of it once
    the transaction commits (games.table.publish.move_publish).

    ``user`` is the mover for a person; server-side callers (timeouts, bots) pass ``seat`` and
    no user. ``expected_version`` is the table version the mover saw (None: do not check).
    Raises ServiceError, with nothing changed, for any move that is refused.
    """
    if not isinstance(move, dict):
        raise _malformed()
    key = _key_clean(idempotency_key)
    try:
        outcome = _move_apply(table_id, user, seat, move, expected_version, key, auto)
    except IntegrityError:
        # A key already used in this hand, sent with the current version (a stale version is
        # looked up before applying): the (hand, key) constraint refused the insert and the
        # transaction rolled back whole; the first move's answer is the answer.
        done = move_by_table_key(table_id, key) if key is not None else None
        if done is None:
            raise
        return _outcome_of(done)
    if not outcome.duplicate:
        metrics.MOVES.inc()
    return outcome


def _move_apply(table_id, user, seat, move, expected_version, key, auto) -> MoveOutcome:
    """Under the Game row's lock: check, apply the engine, save. Nothing else: the views, their
    differences and the HTML are the publish's, after the commit."""
    with transaction.atomic():
        rows = move_rows_lock(table_id)
        if rows is None:
            raise ServiceError("no_table", _("There is no such table."))
        game, table, latest, seats = rows.game, rows.table, rows.hand, rows.seats
        # the client's part of the move, as the table's game reads its moves
        clean = variant_for(table).family.move_clean(move)
        rules = table.engine_variant
        if key is not None and latest is not None and expected_version != game.version:
            # A retry of an applied move carries the version from before it, which is no longer
            # the table's (every move bumps it), so only a move that would be refused as stale,
            # or one that names no version, can be a retry. Looked up in the latest hand only,
            # through its (hand, key) index; a retry from an earlier hand is refused as stale.
            done = move_by_key(latest, key)
            if done is not None:
                return _outcome_of(done)
        row = _seat_resolve(seats, user, seat)
        hand = latest if game.status == Game.Status.PLAYING else None
        if hand is None or hand.over:
            raise ServiceError("no_hand", _("There is no hand being played at this table."))
        version_check(game, expected_version)
        state = rules.hand_from_dict(hand.state)
        try:
            played = rules.move_from_dict({**clean, "seat": row.index})
            new = rules.apply(state, played)
        except engine.IllegalMove as e:
            raise engine_error(e) from None
        # what the pages showed before the move, for its event: the game's version and deadline,
        # and the mover's away flag (shallow copies of the rows the move changes)
        game_before = copy.copy(game)
        seats_before = tuple(copy.copy(s) if s is row else s for s in seats)
        now = timezone.now()
        hand.state = rules.hand_to_dict(new)
        hand.version += 1
        if new.turn != state.turn or new.phase == "over":
            hand.turn_started = now
        over = new.phase == "over"
        game_over = hand_end(game, table, hand, new, now) if over else False
        if not auto and (row.away or row.timeouts_in_row):
            # the player acted: they are back (before the deadline, which sets their turn's time)
            row.away, row.timeouts_in_row = False, 0
            row.save(update_fields=["away", "timeouts_in_row"])
        # with the table's next deadline: this turn's, the next deal, the results
        version = table_version_next(game, hand=hand, seats=seats)
        done = Move(
            hand=hand,
            seq=hand.version,
            seat=row.index,
            kind=clean["kind"],
            tile=clean.get("tile", "").upper(),
            detail=_detail(rules.move_to_dict(played)),
            user=user,
            auto=auto,
            version=version,
            idempotency_key=key,
        )
        # a hand's end changed the game's state and status too
        move_save(hand, game, done, game_whole=over)
        outcome = MoveOutcome(
            version=version,
            seq=hand.version,
            hand_number=hand.number,
            hand_over=over,
            game_over=game_over,
            move=done,
            before=state,
            state=new,
            table=table,
            game=game,
            game_before=game_before,
            hand=hand,
            seats=tuple(seats),
            seats_before=seats_before,
        )
        transaction.on_commit(partial(move_publish, outcome))
        return outcome
