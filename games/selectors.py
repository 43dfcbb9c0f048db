"""The read side: what one viewer may see of a table, ready for templates.

Everything a player sees of a hand comes from ``engine.hand_view(state, seat)``, which holds only
that seat's rack; a spectator gets ``hand_view(state, None)``. The seed is added only once its
hand is over. Nothing here writes.
"""

import threading
from dataclasses import dataclass, field, replace
from functools import lru_cache

from django.urls import reverse
from django.utils import timezone

from games import engine, invite_selectors, teams
from games.models import ChatMessage, Hand, Invite, Seat, Table
from games.words import gettext_cached as _
from games.words import language

CHAT_SHOWN = 40

# Where each seat sits on the viewer's screen, counting from the viewer (offset 0) in turn
# order: the next player is on the right, the previous one (whose pile we take) on the left.
POSITIONS = {
    2: ("bottom", "top"),
    3: ("bottom", "right", "left"),
    4: ("bottom", "right", "top", "left"),
}
# A player discards to their own right; seen from the viewer that is this corner.
PILE_CORNER = {"bottom": "br", "right": "tr", "top": "tl", "left": "bl"}


def epoch_ms(dt) -> int | None:
    return None if dt is None else int(dt.timestamp() * 1000)


def player_name(user) -> str:
    if user is None:
        return ""
    profile = getattr(user, "profile", None)
    name = getattr(profile, "display_name", "") if profile is not None else ""
    return name or user.get_username().split("@")[0]


def seat_name(seat) -> str:
    """A person's name, "Bot 3" for a bot on seat 3, "" for an empty seat."""
    if seat.user_id:
        return player_name(seat.user)
    return _("Bot %(n)d") % {"n": seat.index + 1} if seat.is_bot else ""


def finish_label(kind: str | None) -> str:
    return {
        "normal": _("normal finish"),
        "okey": _("finished with the okey"),
        "pairs": _("finished with pairs"),
        "pairs+okey": _("finished with pairs and the okey"),
    }.get(kind or "", "")


def move_label(kind: str) -> str:
    return {
        "draw": _("drew from the stock"),
        "take": _("took the left discard"),
        "discard": _("discarded"),
        "finish": _("finished with"),
        "show": _("showed the indicator"),
        "pairs": _("declared pairs"),
        "take_indicator": _("took the indicator"),
    }.get(kind, kind)


def mode_label(mode: str) -> str:
    return _("Eşli Okey (partners)") if mode == "esli" else _("Düz Okey")


def seat_rows(table: Table) -> list[Seat]:
    return list(table.seats.select_related("user", "user__profile").order_by("index"))


def current_hand(table: Table) -> Hand | None:
    return Hand.objects.filter(game__table=table).order_by("-number").first()


@dataclass(frozen=True)
class TableSnapshot:
    """What every viewer's page is made from, read at one version of the table. Viewers differ
    only in what ``engine.hand_view`` shows them, so one snapshot serves them all."""

    table: Table
    seats: list[Seat]
    hand: Hand | None
    state: engine.HandState | None
    gstate: engine.GameState | None
    # the table's invites, read when a manager's view first needs them (most views do not)
    _invites: list = field(default_factory=list, compare=False, repr=False)
    _invites_lock: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)
    # what every viewer's view shares, made by the first view that needs it (``_seats``)
    _shared: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def version(self) -> int:
        return self.table.game.version

    def invites(self) -> list[Invite]:
        with self._invites_lock:
            if not self._invites:
                self._invites.append(invite_selectors.invites_read(self.table))
            return self._invites[0]

    def invites_known(self) -> bool:
        with self._invites_lock:
            return bool(self._invites)

    def after(self, **changes) -> "TableSnapshot":
        """This snapshot with some parts replaced; the invites carry over when already read
        (only a change that bumps the version through the invite services changes them)."""
        new = replace(self, _invites=[], _invites_lock=threading.Lock(), _shared={}, **changes)
        with self._invites_lock:
            new._invites.extend(self._invites)
        return new


def table_snapshot(table: Table) -> TableSnapshot:
    """Read ``table`` (fetched with select_related("game")): seats, current hand, states."""
    hand = current_hand(table)
    state = engine.hand_from_dict(hand.state) if hand is not None else None
    if state is not None and hand.over and state.phase != "over":
        state = staff_voided(state)  # a hand the staff voided mid-play
    return TableSnapshot(
        table=table,
        seats=seat_rows(table),
        hand=hand,
        state=state,
        gstate=engine.game_from_dict(table.game.state) if table.game.state else None,
    )


def view_reads_rows(snap: TableSnapshot, user) -> bool:
    """Whether ``table_view(snap, user, chat=False)`` reads rows beyond the snapshot: the live
    invites of an open table (its reserved seats), and the manager's invites until the
    snapshot has them. Otherwise it can run in the event loop, where no query may run."""
    table = snap.table
    if table.status == Table.Status.OPEN:
        return True
    manager = user is not None and user.is_authenticated and user.pk == table.manager_id
    return manager and not snap.invites_known()


def table_view(table: Table | TableSnapshot, user, *, chat: bool = True) -> dict:
    """Everything the table page shows to ``user`` (a player, a spectator or anonymous)."""
    snap = table if isinstance(table, TableSnapshot) else table_snapshot(table)
    table, seats, hand, state, gstate = (
        snap.table, snap.seats, snap.hand, snap.state, snap.gstate
    )  # fmt: skip
    game = table.game
    me = next(
        (
            s.index
            for s in seats
            if user is not None and user.is_authenticated and s.user_id == user.pk
        ),
        None,
    )
    view = engine.hand_view(state, me) if state is not None else None
    opts = table.options
    ctx = {
        "table": table,
        "options": opts,
        "mode_label": mode_label(table.mode),
        "version": game.version,
        "server_now": epoch_ms(timezone.now()),
        "me": me,
        "spectator": me is None,
        "signed_in": bool(user is not None and user.is_authenticated),
        "is_manager": bool(
            user is not None and user.is_authenticated and user.pk == table.manager_id
        ),
        "status": table.status,
        "start_at": epoch_ms(table.start_at) if table.status == Table.Status.STARTING else None,
        "can_start": table.status == Table.Status.OPEN
        and (bool(opts.get("bots_fill", True)) or all(s.user_id or s.is_bot for s in seats)),
        "bots_fill": bool(opts.get("bots_fill", True)),
        "results_pending": game.status == "over" and not game.results,
        "hand": None,
        "rack": None,
        "can": [],
        "result": None,
        "game_result": None,
        "hands_played": gstate.hands_played if gstate else 0,
    }
    ctx["seats"] = _seats(snap, me, view)
    # Eşli teams, reserved seats and the manager's invites (issue 6)
    invite_selectors.seats_mark_reserved(table, ctx["seats"])
    if any(s["reserved"] for s in ctx["seats"]):
        ctx["can_start"] = False  # an invited player is waited for (services.invites)
    ctx["teams"] = teams.teams_view(table, ctx["seats"], gstate, me)
    for s in ctx["seats"]:
        s["team_name"] = ctx["teams"][teams.team_of(s["index"])]["name"] if ctx["teams"] else ""
    ctx["invites"] = invite_selectors.invites_panel(table, user, ctx["seats"], snap.invites)
    if view is not None:
        ctx["hand"] = _hand(table, hand, view, opts)
        if any(s["is_turn"] and s["is_bot"] for s in ctx["seats"]):
            ctx["hand"]["deadline"] = None  # a bot's pause is no clock to watch
        ctx["rack"] = view["rack"]
        ctx["can"] = view["can"]
        if hand.over:
            ctx["result"] = _result(table, hand, view, ctx["seats"], gstate)
            ctx["result"]["teams"] = _result_teams(view["result"], ctx["teams"])
    if game.results:
        ctx["game_result"] = _game_result(game.results, ctx["seats"])
        ctx["game_result"]["teams"] = teams.game_teams(game.results, ctx["teams"])
    if chat:
        ctx["chat"] = chat_view(table, user)
    return ctx


def _seats(snap: TableSnapshot, me, view) -> list[dict]:
    """The seat rows as ``me`` sees them: the rows every viewer shares (``_seat_rows``), with
    what depends on the viewer, where each seat sits around them first."""
    seats, table = snap.seats, snap.table
    n = len(seats)
    origin = me if me is not None else 0
    key = ("seats", language())  # a bot's name is translated
    shared = snap._shared.get(key)
    if shared is None:
        shared = snap._shared.setdefault(key, _seat_rows(snap, view))
    left_of_turn = (view["turn"] - 1) % n if view is not None else None
    take = view is not None and "take" in view["can"]
    esli = table.mode == "esli" and me is not None
    out = []
    for s, common in zip(seats, shared, strict=True):
        position = POSITIONS[n][(s.index - origin) % n]
        row = dict(common)
        row.update(
            is_you=s.index == me,
            position=position,
            pile_corner=PILE_CORNER[position],
            # the pile the viewer may take from now (the engine says when)
            takeable=take and s.index == left_of_turn,
            # Eşli: partners sit opposite (seats 1 and 3, 2 and 4)
            partner=esli and (s.index - me) % 4 == 2,
        )
        out.append(row)
    return out


def _seat_rows(snap: TableSnapshot, view) -> list[dict]:
    """What a seat row shows alike to every viewer of ``snap``; ``view`` is any viewer's view
    of its hand (the public part is the same in all of them). The keys are in the order that
    ``_seats`` always gives them, so a row's cache key (okey.seat) is the same for each."""
    table, gstate = snap.table, snap.gstate
    out = []
    for s in snap.seats:
        row = {
            "index": s.index,
            "number": s.index + 1,
            "name": seat_name(s),
            "empty": s.user_id is None and not s.is_bot,
            "is_bot": s.is_bot,
            "away": s.away,
            "is_you": False,
            "is_manager": s.user_id is not None and s.user_id == table.manager_id,
            "position": None,
            "pile_corner": None,
            "count": gstate.counts[s.index] if gstate else None,
            "team": "AB"[teams.team_of(s.index)] if table.mode == "esli" else None,
            "is_turn": False,
            "rack_size": None,
            "pile": [],
            "pile_size": 0,
            "takeable": False,
            "declared_pairs": False,
            "showed": False,
            "partner": False,
        }
        if view is not None:
            over = view["phase"] == "over"
            row.update(
                is_turn=not over and view["turn"] == s.index,
                rack_size=view["rack_sizes"][s.index],
                pile=view["discards"][s.index],
                pile_size=view["discard_sizes"][s.index],
                declared_pairs=s.index in view["pairs_declared"],
                showed=view["shown_by"] == s.index,
            )
        out.append(row)
    return out


def verify_url(table_id: int, number: int) -> str:
    """The page that checks hand ``number``'s deal; in the active language's URL prefix."""
    return _verify_url(table_id, number, language())


# every frame links the previous hand: reversing the URL each time was a tenth of a frame's view
@lru_cache(maxsize=4096)
def _verify_url(table_id: int, number: int, language: str) -> str:
    return reverse("games:verify", args=[table_id, number])


def _hand(table: Table, hand: Hand, view: dict, opts: dict) -> dict:
    deadline = None
    if view["phase"] != "over":
        # when the server plays for the seat on turn (games.services.deadlines)
        deadline = epoch_ms(table.game.deadline)
    return {
        "id": hand.pk,
        "number": hand.number,
        "previous_url": verify_url(table.pk, hand.number - 1) if hand.number > 1 else None,
        "commitment": hand.commitment,
        "indicator": view["indicator"],
        "okey": view["okey"],
        "indicator_taken": view["indicator_taken_by"] is not None,
        "stock_size": view["stock_size"],
        "phase": view["phase"],
        "turn": view["turn"],
        "deadline": deadline,
        "histories_public": view["histories_public"],
        "drawn": view["drawn"],
        "over": hand.over,
    }


def _result(table, hand: Hand, view: dict, seats: list[dict], gstate) -> dict:
    res = view["result"]
    racks = view["racks"] or []
    rows = []
    for s in seats:
        i = s["index"]
        rows.append(
            {
                "name": s["name"],
                "number": s["number"],
                "is_you": s["is_you"],
                "rack": racks[i] if i < len(racks) else [],
                "delta": res["deltas"][i] if res["deltas"] else 0,
                "count": s["count"],
                "finisher": res["finisher"] == i,
                "showed": res["shower"] == i,
            }
        )
    next_at = None
    if gstate is not None and not gstate.over and hand.ended is not None:
        from games.services.hands import NEXT_HAND_AFTER_VOID_SECONDS, NEXT_HAND_SECONDS

        pause = NEXT_HAND_AFTER_VOID_SECONDS if res["void"] else NEXT_HAND_SECONDS
        next_at = epoch_ms(hand.ended) + pause * 1000
    return {
        "void": res["void"],
        "staff_void": bool((hand.result or {}).get("staff")),
        "finisher": seats[res["finisher"]]["name"] if res["finisher"] is not None else None,
        "kind": res["kind"],
        "kind_label": finish_label(res["kind"]),
        "value": res["value"],
        "shower": seats[res["shower"]]["name"] if res["shower"] is not None else None,
        "groups": res["groups"],
        "tile": res["tile"],
        "rows": rows,
        "seed": bytes(hand.seed).hex(),  # the hand is over: the seed may be revealed
        "commitment": hand.commitment,
        "verify_url": verify_url(table.pk, hand.number),
        "next_at": next_at,
    }


def _game_result(results: dict, seats: list[dict]) -> dict:
    rows = [
        {
            "place": results["places"][s["index"]],
            "name": s["name"],
            "is_you": s["is_you"],
            "count": results["counts"][s["index"]],
            "points": results["points"][s["index"]],
            "team": s["team"],
            "team_name": s.get("team_name", ""),
        }
        for s in seats
    ]
    rows.sort(key=lambda r: (r["place"], r["team"] or "", r["count"]))
    # Eşli: table_view adds the teams (names, totals, the winner) from games.teams
    return {
        "rows": rows,
        "hands": results["hands"],
        "teams": results.get("teams"),
        "staff": bool(results.get("staff")),
    }


def staff_voided(state: engine.HandState) -> engine.HandState:
    """How a hand that staff stopped is shown: as a void hand, every rack open. The stored state
    stays what its moves made (games.services.staff); only the view sees it over."""
    from dataclasses import replace

    void = engine.HandResult(void=True, deltas=(0,) * state.n)
    return replace(state, phase="over", drawn=None, drawn_from_left=None, result=void)


def _result_teams(res: dict, team_rows) -> list[dict] | None:
    """Eşli hand end: each team's change this hand and its total after it."""
    deltas = teams.team_deltas(res["deltas"])
    if team_rows is None or deltas is None:
        return None
    return [{**t, "delta": deltas[t["index"]]} for t in team_rows]


def chat_view(table: Table, user) -> list[dict]:
    messages = list(
        ChatMessage.objects.filter(table=table)
        .select_related("user", "user__profile")
        .order_by("-created", "-id")[:CHAT_SHOWN]
    )
    uid = user.pk if user is not None and user.is_authenticated else None
    return [
        {"name": player_name(m.user), "text": m.text, "time": m.created, "is_you": m.user_id == uid}
        for m in reversed(messages)
    ]


def lobby_tables(user) -> list[dict]:
    """Tables people can join or watch: public ones that are not over, newest first."""
    tables = (
        Table.objects.filter(
            status__in=[Table.Status.OPEN, Table.Status.STARTING, Table.Status.PLAYING],
            options__private=False,
        )
        .select_related("manager")
        .prefetch_related("seats__user__profile")
        .order_by("-created")[:100]
    )
    uid = user.pk if user is not None and user.is_authenticated else None
    reserved = _reserved_by_table(tables)
    out = []
    for t in tables:
        seats = sorted(t.seats.all(), key=lambda s: s.index)
        out.append(
            {
                "table": t,
                "id": t.pk,
                "mode_label": mode_label(t.mode),
                "options": t.options,
                "status": t.status,
                "status_label": t.get_status_display(),
                "taken": sum(1 for s in seats if s.user_id or s.is_bot),
                "seats": [
                    {
                        "index": s.index,
                        "number": s.index + 1,
                        "name": seat_name(s),
                        "free": s.user_id is None
                        and not s.is_bot
                        and (t.pk, s.index) not in reserved,
                        "reserved": (t.pk, s.index) in reserved,
                        "is_you": s.user_id is not None and s.user_id == uid,
                    }
                    for s in seats
                ],
                "seated": any(s.user_id == uid for s in seats if uid),
                "open": t.status == Table.Status.OPEN,
            }
        )
    return out


def _reserved_by_table(tables) -> set[tuple[int, int]]:
    """(table id, seat index) of the seats that live invites keep for someone."""
    ids = [t.pk for t in tables if t.status == Table.Status.OPEN]
    live = Invite.objects.filter(
        table_id__in=ids, status=Invite.Status.SENT, expires_at__gt=timezone.now()
    )
    return set(live.values_list("table_id", "seat_index"))
