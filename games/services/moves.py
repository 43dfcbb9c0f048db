"""move_submit: the one path by which every move (socket, POST, timeout, bot) changes a hand."""

from dataclasses import dataclass
from functools import partial

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import broadcast, engine, events, metrics, store
from games.events import MoveEvent, TableChanged
from games.models import Game, Move, Seat

from .errors import ServiceError, engine_error
from .lifecycle import hand_end
from .tables import table_version_next, version_check

MOVE_KINDS = ("draw", "take", "discard", "finish", "show", "pairs", "take_indicator")


@dataclass(frozen=True)
class MoveOutcome:
    """What a move committed."""

    version: int  # the table's version right after the move
    seq: int  # the move's place in its hand's log
    hand_number: int
    hand_over: bool = False
    game_over: bool = False
    duplicate: bool = False  # a retry of an applied move: nothing was applied again
    state: engine.HandState | None = None  # the hand after the move (None for a retry)
    move: Move | None = None
    # What the pages hear: the move itself, or at a hand's end the whole table changed (the
    # results, every rack shown: each page shows it whole). None for a retry.
    event: MoveEvent | TableChanged | None = None


def _malformed(detail=None) -> ServiceError:
    return ServiceError("malformed", detail or _("That message is not a move."))


def _move_clean(move) -> dict:
    """The client's part of a move: its kind and, for discard and finish, the tile."""
    if not isinstance(move, dict) or move.get("kind") not in MOVE_KINDS:
        raise _malformed()
    clean = {"kind": move["kind"]}
    if move["kind"] in ("discard", "finish"):
        tile = move.get("tile")
        if not isinstance(tile, str) or not 1 <= len(tile) <= 3:
            raise _malformed(_("Choose a tile for that move."))
        clean["tile"] = tile
    return clean


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
    publish=True,
) -> MoveOutcome:
    """Apply one move at most once, and return what it committed.

    ``user`` is the mover for a person; server-side callers (timeouts, bots) pass ``seat`` and
    no user. ``expected_version`` is the table version the mover saw (None: do not check).
    ``publish=False``: the caller sends ``outcome.event`` itself (a socket, from its event loop,
    so that its database thread does not wait on the loop); otherwise it is sent on commit.
    Raises ServiceError, with nothing changed, for any move that is refused.
    """
    clean = _move_clean(move)
    key = _key_clean(idempotency_key)
    try:
        outcome = _move_apply(table_id, user, seat, clean, expected_version, key, auto, publish)
        if not outcome.duplicate:
            metrics.MOVES.inc()
        return outcome
    except IntegrityError:
        # A key already used in this hand, sent with the current version (a stale version is
        # looked up before applying): the (hand, key) constraint refused the insert and the
        # transaction rolled back whole; the first move's answer is the answer.
        done = store.move_by_table_key(table_id, key) if key is not None else None
        if done is None:
            raise
        return _outcome_of(done)


def _move_apply(table_id, user, seat, clean, expected_version, key, auto, publish) -> MoveOutcome:
    with transaction.atomic():
        rows = store.move_rows_lock(table_id)
        if rows is None:
            raise ServiceError("no_table", _("There is no such table."))
        game, table, latest, seats = rows.game, rows.table, rows.hand, rows.seats
        if key is not None and latest is not None and expected_version != game.version:
            # A retry of an applied move carries the version from before it, which is no longer
            # the table's (every move bumps it), so only a move that would be refused as stale,
            # or one that names no version, can be a retry. Looked up in the latest hand only,
            # through its (hand, key) index; a retry from an earlier hand is refused as stale.
            done = store.move_by_key(latest, key)
            if done is not None:
                return _outcome_of(done)
        row = _seat_resolve(seats, user, seat)
        hand = latest if game.status == Game.Status.PLAYING else None
        if hand is None or hand.over:
            raise ServiceError("no_hand", _("There is no hand being played at this table."))
        version_check(game, expected_version)
        state = engine.hand_from_dict(hand.state)
        try:
            new = engine.hand_apply(state, engine.move_from_dict({**clean, "seat": row.index}))
        except engine.IllegalMove as e:
            raise engine_error(e) from None
        gstate = engine.game_from_dict(game.state)
        before, own_before = events.board_before(
            table=table, game=game, seats=seats, hand=hand, gstate=gstate, state=state
        )
        now = timezone.now()
        hand.state = engine.hand_to_dict(new)
        hand.version += 1
        if new.turn != state.turn or new.phase == "over":
            hand.turn_started = now
        game_over = hand_end(game, table, hand, new, now) if new.phase == "over" else False
        if not auto and (row.away or row.timeouts_in_row):
            # the player acted: they are back (before the deadline, which sets their turn's time)
            row.away, row.timeouts_in_row = False, 0
            row.save(update_fields=["away", "timeouts_in_row"])
        over = new.phase == "over"
        # with the table's next deadline: this turn's, the next deal, the results
        version = table_version_next(game, hand=hand, seats=seats)
        done = Move(
            hand=hand,
            seq=hand.version,
            seat=row.index,
            kind=clean["kind"],
            tile=clean.get("tile", "").upper(),
            user=user,
            auto=auto,
            version=version,
            idempotency_key=key,
        )
        # a hand's end changed the game's state and status too
        store.move_save(hand, game, done, game_whole=over)
        if over:
            event = TableChanged(table_id=table.pk, version=version)
        else:
            event = events.move_event(
                table=table, game=game, seats=seats, hand=hand, gstate=gstate, before=before,
                own_before=own_before, state=state, new=new, seat=row.index, kind=clean["kind"],
                tile=clean.get("tile", "").upper() or None,
            )  # fmt: skip
        if publish:
            transaction.on_commit(partial(broadcast.event_publish, event))
            if game_over:
                transaction.on_commit(broadcast.lobby_changed)
        return MoveOutcome(
            version=version,
            seq=hand.version,
            hand_number=hand.number,
            hand_over=over,
            game_over=game_over,
            state=new,
            move=done,
            event=event,
        )
