"""move_submit: the one path by which every move (socket, POST, timeout, bot) changes a hand."""

from dataclasses import dataclass
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import engine
from games.models import Game, Hand, Move, Seat
from games.snapshots import snapshot_after_move, snapshot_hand_state

from .errors import ServiceError, engine_error
from .hands import game_finish
from .rows import row_insert, row_update, rows_batched
from .tables import table_bump, table_lock_for_move, version_check

MOVE_KINDS = ("draw", "take", "discard", "finish", "show", "pairs", "take_indicator")


@dataclass(frozen=True)
class MoveOutcome:
    version: int  # the table's version right after the move
    seq: int  # the move's place in its hand's log
    hand_number: int
    hand_over: bool = False
    game_over: bool = False
    duplicate: bool = False  # a retry of an applied move: nothing was applied again


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
    *, table_id, user=None, seat=None, move, expected_version, idempotency_key=None, auto=False
) -> MoveOutcome:
    """Apply one move at most once.

    ``user`` is the mover for a person; server-side callers (timeouts, bots) pass ``seat`` and
    no user. ``expected_version`` is the table version the mover saw (None: do not check).
    Raises ServiceError, with nothing changed, for any move that is refused.
    """
    clean = _move_clean(move)
    key = _key_clean(idempotency_key)
    # the hand as this process last showed it: its state is not read again if it is still that
    known = snapshot_hand_state(table_id)
    with transaction.atomic():
        # the seats too: the deadline that the move sets needs the next seat
        game, table, latest, seats = table_lock_for_move(table_id, known and known[0])
        if key is not None and latest is not None and expected_version != game.version:
            # A retry of an applied move carries the version from before it, which is no longer
            # the table's (every move bumps it), so only a move that would be refused as stale,
            # or one that names no version, can be a retry. Looked up in the latest hand only,
            # through its (hand, key) index; a retry from an earlier hand is refused as stale.
            done = (
                Move.objects.select_related("hand__game")
                .filter(hand=latest, idempotency_key=key)
                .first()
            )
            if done is not None:
                return _outcome_of(done)
        row = _seat_resolve(seats, user, seat)
        hand = latest if game.status == Game.Status.PLAYING else None
        if hand is None or hand.over:
            raise ServiceError("no_hand", _("There is no hand being played at this table."))
        version_check(game, expected_version)
        state = known[1] if hand.state is None else engine.hand_from_dict(hand.state)
        try:
            new = engine.hand_apply(state, engine.move_from_dict({**clean, "seat": row.index}))
        except engine.IllegalMove as e:
            raise engine_error(e) from None
        now = timezone.now()
        hand.state = engine.hand_to_dict(new)
        hand.version += 1
        if new.turn != state.turn or new.phase == "over":
            hand.turn_started = now
        outcome = _hand_end(game, table, hand, new, now) if new.phase == "over" else {}
        # the hand, the game and the move: written in one query, with the COMMIT when this is
        # the whole transaction (nothing below may touch the database)
        with rows_batched(last=True):
            # only what a move changes: the seed, commitment and deal stay as they were written
            row_update(hand, ("state", "version", "turn_started", "over", "ended", "result"))
            if not auto and (row.away or row.timeouts_in_row):
                # the player acted: they are back (before the bump, which sets their turn's time)
                row.away, row.timeouts_in_row = False, 0
                row.save(update_fields=["away", "timeouts_in_row"])
            elif not auto and new.phase != "over":
                # Only the hand changed: this process's sockets can show the move without reading
                # the table again. Registered before the bump so that it runs before the broadcast.
                transaction.on_commit(partial(snapshot_after_move, game, hand, new))
            # the bump also sets the table's next deadline: this turn's, the next deal, the results
            version = table_bump(
                game,
                lobby=outcome.get("game_over", False),
                hand=hand,
                seats=seats,
                game_changed=new.phase == "over",
            )
            row_insert(
                Move(
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
            )
        return MoveOutcome(
            version=version,
            seq=hand.version,
            hand_number=hand.number,
            hand_over=new.phase == "over",
            game_over=outcome.get("game_over", False),
        )


def _hand_end(game: Game, table, hand: Hand, new, now) -> dict:
    """Apply a finished or void hand to the game: the game ends (its results follow in a task),
    or the next deal follows after a pause (both are deadlines, see games.services.deadlines)."""
    hand.over, hand.ended = True, now
    hand.result = engine.hand_to_dict(new)["result"]
    state = engine.game_apply_hand(engine.game_from_dict(game.state), new.result)
    game.state = engine.game_to_dict(state)
    if state.over:
        game_finish(game, table, state, now)
        return {"game_over": True}
    return {}
