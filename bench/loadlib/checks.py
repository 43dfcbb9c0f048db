"""What must hold in the database after any fault: the fault harness runs these after each one.

- every hand's moves are numbered 1..n with no gap and no repeat, and n is the hand's version;
- replaying the moves from the hand's seed gives exactly the stored state (a move lost, applied
  twice or applied out of order shows here, as a refused replay or a different state);
- a game's moves carry distinct table versions, increasing in play order, none above the game's;
- a game's hands are numbered 1..k and only the last one may still be running;
- (``overdue_deadlines``) no table is far past its deadline (Game.deadline): a timed-out turn,
  a bot's turn, the next deal must be played in the end, whatever died meanwhile.
"""

from __future__ import annotations

from datetime import timedelta


def _hand_problems(hand, options, moves: list[dict]) -> list[str]:
    from games import engine

    where = f"table {hand.game.table_id} hand {hand.number}"
    problems = []
    seqs = [m["seq"] for m in moves]
    if seqs != list(range(1, len(seqs) + 1)):
        missing = sorted(set(range(1, (max(seqs) if seqs else 0) + 1)) - set(seqs))
        repeated = sorted({s for s in seqs if seqs.count(s) > 1})
        problems.append(
            f"{where}: move numbers not contiguous (missing {missing}, repeated {repeated})"
        )
    if hand.version != len(moves):
        problems.append(f"{where}: hand version {hand.version} but {len(moves)} moves")
    plays = [
        {k: m[k] for k in ("kind", "seat")} | ({"tile": m["tile"]} if m["tile"] else {})
        for m in moves
    ]
    try:
        replayed = engine.hand_replay(bytes(hand.seed), options, hand.first_seat, plays)
    except engine.IllegalMove as e:
        return [*problems, f"{where}: the replay refuses a move ({e})"]
    if engine.hand_to_dict(replayed) != hand.state:
        problems.append(f"{where}: replaying the moves does not give the stored state")
    if hand.over != (replayed.phase == "over"):
        problems.append(
            f"{where}: hand.over is {hand.over} but the replay's phase is {replayed.phase}"
        )
    return problems


def database_check(table_ids=None) -> list[str]:
    """Every problem found in the games of ``table_ids`` (all tables when None)."""
    from games.models import Game, Move

    games = Game.objects.select_related("table").exclude(state=None)
    if table_ids is not None:
        games = games.filter(table_id__in=list(table_ids))
    problems: list[str] = []
    for game in games.order_by("table_id"):
        options = game.table.rules
        hands = list(game.hands.order_by("number"))
        numbers = [h.number for h in hands]
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"table {game.table_id}: hands numbered {numbers}")
        if any(not h.over for h in hands[:-1]):
            problems.append(f"table {game.table_id}: a hand before the last one is still running")
        moves = list(
            Move.objects.filter(hand__game=game)
            .order_by("hand__number", "seq", "id")
            .values("hand_id", "seq", "seat", "kind", "tile", "version")
        )
        for hand in hands:
            hand.game = game
            mine = [m for m in moves if m["hand_id"] == hand.pk]
            problems += _hand_problems(hand, options, mine)
        versions = [m["version"] for m in moves]
        if versions != sorted(set(versions)):
            problems.append(f"table {game.table_id}: move versions repeat or go backwards")
        if versions and versions[-1] > game.version:
            problems.append(f"table {game.table_id}: a move's version is above the game's")
    return problems


def database_check_consistent(table_ids=None) -> list[str]:
    """database_check on one snapshot of the database (REPEATABLE READ on PostgreSQL), so that
    moves committed while it reads cannot look like a gap."""
    from django.db import connection, transaction

    outermost = not connection.in_atomic_block  # inside a test's transaction: already one view
    with transaction.atomic():
        if connection.vendor == "postgresql" and outermost:
            with connection.cursor() as c:
                c.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        return database_check(table_ids)


def overdue_deadlines(grace_seconds: float, table_ids=None, now=None) -> list[str]:
    """Tables whose next server action (a timed-out turn, a bot's turn, the next deal, the
    results: Game.deadline) is more than ``grace_seconds`` late."""
    from django.utils import timezone

    from games.models import Game

    now = now or timezone.now()
    games = Game.objects.filter(deadline__lt=now - timedelta(seconds=grace_seconds))
    if table_ids is not None:
        games = games.filter(table_id__in=list(table_ids))
    return [
        f"table {g.table_id}: its deadline is {(now - g.deadline).total_seconds():.1f} s past"
        for g in games.only("table_id", "deadline")
    ]


def timed_out_turns(table_ids=None) -> int:
    """Turns the server played for a person (timeouts and away seats): auto moves that end a
    turn on a seat with no bot."""
    from games.models import Move, Seat

    bots = set(Seat.objects.filter(is_bot=True).values_list("table_id", "index"))
    moves = Move.objects.filter(auto=True, kind__in=("discard", "finish"))
    if table_ids is not None:
        moves = moves.filter(hand__game__table_id__in=list(table_ids))
    return sum(
        1
        for table_id, seat in moves.values_list("hand__game__table_id", "seat")
        if (table_id, seat) not in bots
    )
