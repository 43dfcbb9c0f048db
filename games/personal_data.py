"""One player's games as the site keeps them, for that player: what their data export holds of
their games, and what becomes of their games when they delete their account (accounts.deletion).

What the export holds is the player's own: their seat, their moves (a drawn tile is their own),
the public end of each hand; never a rack, a hand's state or another player's tiles. Deleting an
account keeps the games others played with them (their results stay, under "Deleted player",
games.names) and removes what was theirs alone: chat lines, invites they sent.
"""

from django.db.models import Q

from games import engine
from games.errors import ServiceError
from games.labels import mode_label
from games.models import (
    Block,
    ChatMessage,
    Entrant,
    Follow,
    Game,
    Hand,
    Invite,
    Move,
    PlayerResult,
    Report,
    Sanction,
    Seat,
    StaffAction,
    Table,
)
from games.table.changes import table_bump, table_lock
from games.table.seats import seat_give_up, seat_leave
from games.variants import variant_for

BEFORE_START = (Table.Status.OPEN, Table.Status.STARTING)
OVER = (Table.Status.FINISHED, Table.Status.CLOSED)


def _when(value):
    return value.isoformat() if value is not None else None


# --- the export -----------------------------------------------------------------------------


def player_games_export(user) -> dict:
    """The games part of ``user``'s data export: plain JSON types."""
    return {
        "games": _games(user),
        "hands": _hands(user),
        "chat": [
            {"table": m.table_id, "text": m.text, "written": _when(m.created)}
            for m in ChatMessage.objects.filter(user=user).order_by("created", "id")
        ],
        "invites_sent": [
            {
                "table": i.table_id,
                "seat": i.seat_index + 1,
                "email": i.email,
                "status": i.state,
                "created": _when(i.created),
                "sent": _when(i.sent_at),
                "expires": _when(i.expires_at),
            }
            for i in Invite.objects.filter(inviter=user).order_by("created", "id")
        ],
        "invites_accepted": [
            {"table": i.table_id, "seat": i.seat_index + 1, "accepted": _when(i.accepted_at)}
            for i in Invite.objects.filter(accepted_by=user).order_by("accepted_at", "id")
        ],
        "following": [
            {"player": f.followed_id, "since": _when(f.created)}
            for f in Follow.objects.filter(follower=user).order_by("created", "id")
        ],
        "blocked": [
            {"player": b.blocked_id, "since": _when(b.created)}
            for b in Block.objects.filter(blocker=user).order_by("created", "id")
        ],
        "reports_made": [
            {
                "player": r.reported_id,
                "reason": r.reason,
                "note": r.note,
                "table": r.evidence.get("table"),
                "made": _when(r.created),
                "status": r.status,
            }
            for r in Report.objects.filter(reporter=user).order_by("created", "id")
        ],
        "sanctions": [
            {
                "kind": s.kind,
                "reason": s.reason,
                "given": _when(s.created),
                "until": _when(s.until),
                "lifted": _when(s.lifted),
            }
            for s in Sanction.objects.filter(user=user).order_by("created", "id")
        ],
        "tournaments": [
            {
                "tournament": e.tournament_id,
                "name": e.tournament.name,
                "starts": _when(e.tournament.starts),
                "joined": _when(e.joined),
                "points": e.points,
                "games": e.games,
                "wins": e.wins,
                # each game: its table, the place, the points it scored (doubled on a streak)
                "results": e.results,
            }
            for e in Entrant.objects.filter(user=user)
            .select_related("tournament")
            .order_by("joined", "id")
        ],
        "tables_managed": [
            {
                "table": t.pk,
                "mode": mode_label(t.mode),
                "status": t.status,
                "created": _when(t.created),
            }
            for t in user.managed_tables.order_by("created", "id")
        ],
    }


def _games(user) -> list[dict]:
    results = PlayerResult.objects.filter(user=user).select_related("game__table")
    return [
        {
            "table": r.game.table_id,
            "mode": mode_label(r.game.table.mode),
            "seat": r.seat + 1,
            "place": r.place,
            "count": r.count,
            "rating": variant_for(r.game.table).rating,  # accounts.ratings: which it moved
            "rating_points": r.points,
            "ended": _when(r.ended),
        }
        for r in results.order_by("ended", "id")
    ]


def _hands(user) -> list[dict]:
    """Every hand ``user`` made a move in or sat at, with their own moves only."""
    played = Q(pk__in=Move.objects.filter(user=user).values("hand")) | Q(
        game__table__in=Seat.objects.filter(user=user).values("table")
    )
    hands = Hand.objects.filter(played).select_related("game__table").order_by("started", "id")
    moves_of: dict[int, list[Move]] = {}
    for m in Move.objects.filter(user=user, hand__in=hands).order_by("hand_id", "seq"):
        moves_of.setdefault(m.hand_id, []).append(m)
    seat_of = dict(Seat.objects.filter(user=user).values_list("table_id", "index"))
    out = []
    for hand in hands:
        mine = moves_of.get(hand.pk, [])
        seat = mine[0].seat if mine else seat_of.get(hand.game.table_id)
        drawn = _drawn_tiles(hand, mine)
        out.append(
            {
                "table": hand.game.table_id,
                "hand": hand.number,
                "mode": mode_label(hand.game.table.mode),
                "seat": seat + 1 if seat is not None else None,
                "started": _when(hand.started),
                "ended": _when(hand.ended),
                # the indicator is shown to every player; the rest of the state holds racks
                "indicator": (hand.state or {}).get("indicator"),
                "result": _hand_result(hand, seat),
                "moves": [
                    {
                        "number": m.seq,
                        "kind": m.kind,
                        "tile": m.tile or drawn.get(m.seq),
                        **({"detail": m.detail} if m.detail else {}),
                        "automatic": m.auto,
                        "time": _when(m.created),
                    }
                    for m in mine
                ],
            }
        )
    return out


def _drawn_tiles(hand: Hand, mine: list[Move]) -> dict[int, str]:
    """The tile of each of the player's draws and takes, by the move's number: the log keeps no
    tile for a draw (the stock is secret from everyone else), but the tile is the player's own,
    who saw it. Worked out by replaying the hand's log from its deal, here on the server."""
    wanted = {m.seq for m in mine if m.kind in ("draw", "take") and not m.tile}
    if not wanted:
        return {}
    rules = variant_for(hand.game.table).engine
    state = rules.deal(bytes(hand.seed), hand.game.table.rules, hand.first_seat)
    out = {}
    for move in hand.moves.order_by("seq"):
        state = rules.apply(state, rules.move_from_dict(move.as_engine_dict()))
        drawn = getattr(state, "drawn", None)
        if move.seq in wanted and drawn is not None:
            out[move.seq] = engine.format_tile(drawn)
        if len(out) == len(wanted):
            break
    return out


def _hand_result(hand: Hand, seat) -> dict | None:
    """The public end of the hand as it concerns ``seat``: the finished groups only when they
    are the player's own."""
    if not hand.over or not hand.result:
        return None
    r = hand.result
    finisher = r.get("finisher")
    deltas = r.get("deltas") or []
    return {
        "void": bool(r.get("void")),
        "you_finished": finisher is not None and finisher == seat,
        "finish": r.get("kind"),
        "your_count_change": deltas[seat] if seat is not None and seat < len(deltas) else None,
        "your_groups": r.get("groups") if finisher is not None and finisher == seat else None,
    }


# --- account deletion ----------------------------------------------------------------------


def player_tables_leave(user) -> list[dict]:
    """Take ``user`` out of every table that is not over, each in its own transaction under its
    table's lock: before the start as the site's leave does (games.table.seats.seat_leave), at a
    game under way as when staff remove a player (a bot or the timeouts play the seat on)."""
    left = []
    seats = Seat.objects.filter(user=user).select_related("table")
    for seat in seats.exclude(table__status__in=OVER):
        table_id, by = seat.table_id, None
        try:
            if seat.table.status in BEFORE_START:
                seat_leave(table_id=table_id, user=user)
                seat.refresh_from_db()
                if seat.left_by_id == user.pk:  # it started meanwhile: they gave the game up
                    by = "bot" if seat.is_bot else "timeouts"
            else:
                by = seat_give_up(table_id=table_id, user=user)
        except ServiceError as e:
            if e.code in ("not_seated", "not_playing"):
                continue  # they left, or the game ended, since the seats were read
            raise
        left.append({"table": table_id, "seat": seat.index + 1, "taken_over_by": by})
    return left


def player_games_erase(user) -> dict:
    """Remove what was ``user``'s alone (caller holds a transaction): their chat lines and the
    invites they sent (a live one frees its seat: the table's pages hear of it), the address on
    the invites they accepted, and their name where it was written into a game's results or a
    staff action. How many of each went."""
    chat, _ = ChatMessage.objects.filter(user=user).delete()
    follows, _ = Follow.objects.filter(Q(follower=user) | Q(followed=user)).delete()
    blocks, _ = Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()
    # out of every arena's pool; their standings stay, under "Deleted player"
    Entrant.objects.filter(user=user, active=True).update(active=False, waiting_since=None)
    sent = Invite.objects.filter(inviter=user)
    live_at = set(sent.filter(status=Invite.Status.SENT).values_list("table_id", flat=True))
    invites, _ = sent.delete()
    for table_id in sorted(live_at):
        game, _table = table_lock(table_id)
        table_bump(game, lobby=True)
    accepted = Invite.objects.filter(accepted_by=user).update(email="")
    table_ids = {
        *Seat.objects.filter(user=user).values_list("table_id", flat=True),
        *PlayerResult.objects.filter(user=user).values_list("game__table_id", flat=True),
        *Move.objects.filter(user=user).values_list("hand__game__table_id", flat=True).distinct(),
    }
    names = 0
    for game in Game.objects.filter(table__in=table_ids, results__isnull=False):
        if _names_erase(game.results, user.pk):
            game.save(update_fields=["results"])
            names += 1
    actions = StaffAction.objects.filter(Q(table__in=table_ids) | Q(details__user=user.pk))
    for action in actions.exclude(kind=StaffAction.Kind.ACCOUNT_DELETE):
        details = action.details
        changed = _names_erase(details.get("results"), user.pk)
        if details.get("user") == user.pk and details.get("name"):
            details["name"], changed = "", True
        if changed:
            # the audit log is append-only for staff; erasing a name is the law's exception
            StaffAction.objects.filter(pk=action.pk).update(details=details)
            names += 1
    return {"chat_lines": chat, "invites_sent": invites, "invites_accepted": accepted,
            "follows": follows, "blocks": blocks, "names_erased": names}  # fmt: skip


def _names_erase(results, user_id: int) -> bool:
    changed = False
    for p in (results or {}).get("players") or ():
        if p.get("user") == user_id and p.get("name"):
            p["name"], changed = "", True
    return changed
