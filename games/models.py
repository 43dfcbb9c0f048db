"""Tables, seats, games, hands and the append-only move log.

The engine's states are stored as JSON (``hand_to_dict`` / ``game_to_dict``); these rows add what
the engine does not know: who sits where, the table's version, the seed, times. The Game row is the
lock for everything that happens at its table (see the services), so every table has exactly one
Game from the moment it is created.
"""

from datetime import timedelta
from functools import cached_property

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import engine
from games.policy import TablePolicy, options_split


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("waiting for players")
        STARTING = "starting", _("starting")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")
        CLOSED = "closed", _("closed")

    manager = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="managed_tables",
        verbose_name=_("table manager"),
    )

    class Variant(models.TextChoices):
        DUZ = "duz", _("Düz Okey")
        ESLI = "esli", _("Eşli Okey")
        OKEY101 = "101", _("Okey 101")
        ESLI101 = "esli101", _("Eşli 101")

    # The game played here (engine.variant(name)): it says how ``options`` are read, and which
    # of the site's variant packages (games.variants) shows the table.
    variant = models.CharField(
        max_length=8, choices=Variant.choices, default=Variant.DUZ, verbose_name=_("game")
    )
    # The manager's choices, flat: the variant's rule options and the table policy together
    # (games.policy.options_stored), checked when the table is created and never changed after.
    # Read them through ``rules`` and ``policy``, parsed once per row loaded, which fill in any
    # name missing with its one default.
    options = models.JSONField(default=dict, verbose_name=_("options"))
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.OPEN, verbose_name=_("status")
    )
    # end of the 10 s start countdown
    start_at = models.DateTimeField(null=True, blank=True, verbose_name=_("starts at"))
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    # Eşli: names the manager gave the teams (seats 1 & 3, seats 2 & 4); blank shows a default
    team_a_name = models.CharField(max_length=30, blank=True, verbose_name=_("Team A"))
    team_b_name = models.CharField(max_length=30, blank=True, verbose_name=_("Team B"))
    # The arena tournament that seated this table (games.arena), if any: its game's end counts
    # in the tournament's standings and sends its players back to the tournament's page.
    tournament = models.ForeignKey(
        "Tournament",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tables",
        verbose_name=_("tournament"),
    )

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["status", "created"])]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self):
        # the admin's title for the table, in the staff member's language
        return _("Table #%(id)s · %(game)s · %(status)s") % {
            "id": self.pk,
            "game": self.get_variant_display(),
            "status": self.get_status_display(),
        }

    @cached_property
    def engine_variant(self) -> engine.Variant:
        """The engine's record of the game played here: the site asks it, not the variant."""
        return engine.variant(self.variant)

    @cached_property
    def rules(self):
        """The variant's rule options (``RuleOptions`` for Düz and Eşli, ``Options101``)."""
        return self.engine_variant.options_from_dict(options_split(self.options)[0])

    @cached_property
    def policy(self) -> TablePolicy:
        return TablePolicy.from_dict(options_split(self.options)[1])

    @property
    def mode(self) -> str:
        """The variant's name (Düz Okey's rule option ``mode`` was the only one before 101)."""
        return self.variant

    @property
    def seat_count(self) -> int:
        return self.rules.seats

    @property
    def private(self) -> bool:
        return self.policy.private


class Seat(models.Model):
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    # 0-based; the UI shows index + 1
    index = models.PositiveSmallIntegerField(verbose_name=_("seat index"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("player"),
    )
    is_bot = models.BooleanField(default=False, verbose_name=_("bot"))
    # how this bot plays (engine.BOT_STRENGTHS), chosen when it was seated; "" plays at the
    # table's policy.bot_strength, as the bots that fill empty seats at the start do
    bot_strength = models.CharField(
        max_length=8, blank=True, default="", verbose_name=_("bot strength")
    )
    away = models.BooleanField(default=False, verbose_name=_("away"))
    timeouts_in_row = models.PositiveSmallIntegerField(
        default=0, verbose_name=_("timeouts in a row")
    )
    # The person who left this seat while its game ran (games.table.seats.seat_leave): the game
    # still rates them, as its loser (docs/rules.md, "Leaving a rated game").
    left_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats_left",
        verbose_name=_("left by"),
    )

    class Meta:
        ordering = ["table_id", "index"]  # the column: "table" would join Table for its ordering
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=Q(user__isnull=False), name="seat_one_per_user"
            ),
        ]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")

    def __str__(self):
        return _("Table #%(table)s · seat %(n)d") % {"table": self.table_id, "n": self.index + 1}


class Game(models.Model):
    """A match of hands at one table; its row is locked by every service that changes the table."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")
        PLAYING = "playing", _("playing")
        OVER = "over", _("over")

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="game", verbose_name=_("table")
    )
    # engine GameState, once dealt
    state = models.JSONField(null=True, blank=True, verbose_name=_("state"))
    # The table's version: +1 on every change a viewer can see (seats, start, deal, move).
    version = models.PositiveIntegerField(default=1, verbose_name=_("version"))
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.WAITING, verbose_name=_("status")
    )
    started = models.DateTimeField(null=True, blank=True, verbose_name=_("started"))
    ended = models.DateTimeField(null=True, blank=True, verbose_name=_("ended"))
    # places, rating points, counts
    results = models.JSONField(null=True, blank=True, verbose_name=_("results"))
    # When the server must act next at this table (the deal after the start countdown, a turn
    # that runs out, a bot's move, the next deal, the game's results); kept by table_bump
    # (games.table.deadlines) so that the periodic sweep finds whatever a lost task left.
    deadline = models.DateTimeField(null=True, blank=True, verbose_name=_("server acts next"))

    class Meta:
        indexes = [models.Index(fields=["deadline"], name="game_deadline")]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self):
        return _("Game of table #%(table)s (version %(version)d)") % {
            "table": self.table_id,
            "version": self.version,
        }

    def latest_hand(self) -> "Hand | None":
        """The game's hand dealt last (the one running, or the one that ended last)."""
        return self.hands.order_by("-number").first()


class Hand(models.Model):
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="hands", verbose_name=_("game")
    )
    # 1, 2, ... counting void hands too
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    # Secret until the hand is over: never rendered, broadcast or logged before that.
    seed = models.BinaryField(max_length=32, editable=False)
    # SHA-256 of the seed, published at the deal
    commitment = models.CharField(max_length=64, verbose_name=_("commitment"))
    first_seat = models.PositiveSmallIntegerField(verbose_name=_("first seat"))
    state = models.JSONField(verbose_name=_("state"))  # engine HandState (hand_to_dict)
    # moves applied == last Move.seq
    version = models.PositiveIntegerField(default=0, verbose_name=_("moves played"))
    over = models.BooleanField(default=False, verbose_name=_("over"))
    result = models.JSONField(null=True, blank=True, verbose_name=_("result"))
    started = models.DateTimeField(auto_now_add=True, verbose_name=_("started"))
    # for the turn countdown
    turn_started = models.DateTimeField(null=True, blank=True, verbose_name=_("turn started"))
    ended = models.DateTimeField(null=True, blank=True, verbose_name=_("ended"))

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="hand_unique_number"),
        ]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")

    def __str__(self):
        return _("hand %(n)d of table #%(table)s") % {"n": self.number, "table": self.game.table_id}


class HandReview(models.Model):
    """The moments of a finished hand that its review points at (games.engine.hand_marks),
    worked out once when the hand ends: each mark as a JSON object, tiles in notation."""

    hand = models.OneToOneField(Hand, on_delete=models.CASCADE, related_name="review")
    marks = models.JSONField(default=list)
    strength = models.CharField(max_length=16)  # the bot that judged the discards
    # what the marks mean (engine.MARKS_VERSION when made): a review of an older meaning is made
    # again before it is shown or counted, never read as the new one
    version = models.PositiveSmallIntegerField(default=1)
    made = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("hand review")
        verbose_name_plural = _("hand reviews")

    def __str__(self):
        return _("review of %(hand)s") % {"hand": self.hand}

    @property
    def current(self) -> bool:
        return self.version == engine.MARKS_VERSION


class Move(models.Model):
    """Append-only: one row per applied move, enough to replay the hand from its seed."""

    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, related_name="moves", verbose_name=_("hand")
    )
    seq = models.PositiveIntegerField(verbose_name=_("number"))  # 1, 2, ...
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat index"))
    kind = models.CharField(max_length=16, verbose_name=_("kind"))
    tile = models.CharField(max_length=3, blank=True, verbose_name=_("tile"))
    # The rest of a move that carries more than one tile (101's lay, add, take an okey back:
    # groups, a meld, a side), as the engine's move dict holds it without kind, seat and tile;
    # None for a move that is whole in kind and tile (every Düz and Eşli move).
    detail = models.JSONField(null=True, blank=True, verbose_name=_("detail"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=_("player"),
    )
    # a timeout's move or a bot's
    auto = models.BooleanField(default=False, verbose_name=_("played by the server"))
    # the table's version right after this move
    version = models.PositiveIntegerField(verbose_name=_("table version"))
    # NULL, not "": moves without a key must not collide in the unique constraint below
    idempotency_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))

    class Meta:
        ordering = ["hand_id", "seq"]  # the column: "hand" would join Hand for its ordering
        constraints = [
            models.UniqueConstraint(fields=["hand", "seq"], name="move_unique_seq"),
            models.UniqueConstraint(
                fields=["hand", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="move_unique_key",
            ),
        ]
        verbose_name = _("move")
        verbose_name_plural = _("moves")

    def __str__(self):
        return _("%(hand)s · move %(seq)d · seat %(seat)d · %(kind)s %(tile)s") % {
            "hand": self.hand,
            "seq": self.seq,
            "seat": self.seat + 1,
            "kind": self.kind,
            "tile": self.tile,
        }

    def as_engine_dict(self) -> dict:
        """The move as the engine's ``move_from_dict`` reads it: replayed from the seed, it
        gives the hand exactly as it was played."""
        d = {"kind": self.kind, "seat": self.seat}
        if self.tile:
            d["tile"] = self.tile
        if self.detail:
            d.update(self.detail)
        return d


class ChatMessage(models.Model):
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="chat", verbose_name=_("table")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("player")
    )
    text = models.CharField(max_length=200, verbose_name=_("text"))
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))

    class Meta:
        ordering = ["created", "id"]
        indexes = [models.Index(fields=["table", "created"])]
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")

    def __str__(self):
        return f"{self.user_id}: {self.text[:30]}"


class PlayerResult(models.Model):
    """One player's line of a finished game, written with the rating points: profiles list them."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="player_results", verbose_name=_("game")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="game_results",
        verbose_name=_("player"),
    )
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat index"))
    place = models.PositiveSmallIntegerField(verbose_name=_("place"))
    # rating points, as added to the profile
    points = models.IntegerField(verbose_name=_("rating points"))
    count = models.IntegerField(verbose_name=_("count"))
    ended = models.DateTimeField(verbose_name=_("ended"))

    class Meta:
        ordering = ["-ended", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="player_result_once_per_game"),
        ]
        indexes = [models.Index(fields=["user", "-ended"])]
        verbose_name = _("player result")
        verbose_name_plural = _("player results")

    def __str__(self):
        return f"{self.user_id} in game {self.game_id}: place {self.place}, {self.points:+d}"


class Invite(models.Model):
    """A seat reserved for whoever follows an e-mailed link; only the token's hash is stored."""

    class Status(models.TextChoices):
        SENT = "sent", _("sent")
        ACCEPTED = "accepted", _("accepted")
        EXPIRED = "expired", _("expired")
        CANCELLED = "cancelled", _("cancelled")
        DECLINED = "declined", _("declined")  # by whoever holds the link (cancelled_at: when)

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="invites", verbose_name=_("table")
    )
    # 0-based, like Seat.index
    seat_index = models.PositiveSmallIntegerField(verbose_name=_("seat index"))
    email = models.EmailField(verbose_name=_("e-mail address"))
    inviter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="invites_sent",
        verbose_name=_("invited by"),
    )
    # the invitee's (invites.services): the e-mail's
    language = models.CharField(max_length=5, verbose_name=_("language"))
    token_hash = models.CharField(max_length=64, unique=True)  # SHA-256 hex of the link's token
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.SENT, verbose_name=_("status")
    )
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    # the latest send; a resend starts a new token and expiry
    sent_at = models.DateTimeField(verbose_name=_("sent"))
    sends = models.PositiveSmallIntegerField(default=1, verbose_name=_("times sent"))
    expires_at = models.DateTimeField(verbose_name=_("expires"))
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invites_accepted",
        verbose_name=_("accepted by"),
    )
    accepted_at = models.DateTimeField(null=True, blank=True, verbose_name=_("accepted"))
    cancelled_at = models.DateTimeField(null=True, blank=True, verbose_name=_("cancelled"))

    class Meta:
        ordering = ["table_id", "seat_index", "-created"]
        constraints = [
            # a seat is reserved by at most one live invite
            models.UniqueConstraint(
                fields=["table", "seat_index"],
                condition=Q(status="sent"),
                name="invite_one_live_per_seat",
            ),
        ]
        verbose_name = _("invite")
        verbose_name_plural = _("invites")

    def __str__(self):
        return _("Invite to %(email)s · table #%(table)s · seat %(n)d") % {
            "email": self.email,
            "table": self.table_id,
            "n": self.seat_index + 1,
        }

    @property
    def state(self) -> str:
        """The status as the manager sees it: a sent invite past its expiry is expired."""
        if self.status == self.Status.SENT and self.expires_at <= timezone.now():
            return self.Status.EXPIRED
        return self.status

    def get_state_display(self) -> str:
        return self.Status(self.state).label


class StaffAction(models.Model):
    """What a staff member did to a table through the admin, and the accounts players deleted
    themselves (accounts.deletion): append-only, shown read-only. An account's deletion has no
    table and no staff member: ``details`` holds the account's id and what was removed."""

    class Kind(models.TextChoices):
        TABLE_CLOSE = "table_close", _("closed the table")
        SEAT_REMOVE = "seat_remove", _("removed a player from a seat")
        HAND_VOID = "hand_void", _("voided the hand and dealt again")
        GAME_END = "game_end", _("ended the game")
        ACCOUNT_DELETE = "account_delete", _("a player deleted their account")
        ACCOUNT_WARN = "account_warn", _("warned a player")
        ACCOUNT_MUTE = "account_mute", _("muted a player's chat")
        ACCOUNT_SUSPEND = "account_suspend", _("suspended an account")
        SANCTION_LIFT = "sanction_lift", _("lifted a sanction")
        REPORT_DISMISS = "report_dismiss", _("dismissed a report")

    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="staff_actions",
        verbose_name=_("staff member"),
    )
    kind = models.CharField(max_length=16, choices=Kind.choices, verbose_name=_("action"))
    # kept when a table is deleted: details holds its id as well
    table = models.ForeignKey(
        Table,
        on_delete=models.SET_NULL,
        null=True,
        related_name="staff_actions",
        verbose_name=_("table"),
    )
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    reason = models.CharField(max_length=200, blank=True, verbose_name=_("reason"))
    # the table's version before and after the action; none for an account's deletion
    version_before = models.PositiveIntegerField(
        null=True, blank=True, verbose_name=_("version before")
    )
    version_after = models.PositiveIntegerField(
        null=True, blank=True, verbose_name=_("version after")
    )
    details = models.JSONField(default=dict, verbose_name=_("details"))

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("staff action")
        verbose_name_plural = _("staff actions")

    def __str__(self):
        if "user" in self.details and self.table_id is None:
            return _("%(kind)s (user %(user)s)") % {
                "kind": self.get_kind_display(),
                "user": self.details.get("user"),
            }
        return _("%(kind)s (table #%(table)s)") % {
            "kind": self.get_kind_display(),
            "table": self.details.get("table"),
        }


# --- between players (games.social): follows, blocks, reports, and staff's sanctions ------------


class Follow(models.Model):
    """``follower`` follows ``followed``: no request, no answer. Two follows make friends."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(
                condition=~Q(follower=models.F("followed")), name="follow_not_self"
            ),
        ]
        verbose_name = _("follow")
        verbose_name_plural = _("follows")

    def __str__(self):
        return f"{self.follower_id} follows {self.followed_id}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: never seated together by quick play or a tournament,
    the blocked player's chat and invitations do not reach the blocker, and they cannot follow
    the blocker or see whether the blocker is online. Only the blocker knows of it."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~Q(blocker=models.F("blocked")), name="block_not_self"
            ),
        ]
        indexes = [models.Index(fields=["blocked", "blocker"])]
        verbose_name = _("block")
        verbose_name_plural = _("blocks")

    def __str__(self):
        return f"{self.blocker_id} blocked {self.blocked_id}"


class Report(models.Model):
    """A player's report of another to staff, with the evidence as it stood when it was made:
    the table and hand, and the table's last chat lines (copied: chat is pruned, and a line
    deleted later must still be seen by staff)."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("insults or harassment in chat")
        CHEATING = "cheating", _("cheating or playing together against others")
        STALLING = "stalling", _("stalling or leaving games on purpose")
        NAME = "name", _("an offensive name")
        OTHER = "other", _("something else")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        ACTIONED = "actioned", _("acted on")
        DISMISSED = "dismissed", _("dismissed")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="reports_made",
        verbose_name=_("reported by"),
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_against",
        verbose_name=_("player reported"),
    )
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    note = models.CharField(_("note"), max_length=500, blank=True)
    # kept when the table is deleted: ``evidence`` holds its id as well
    table = models.ForeignKey(
        Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="reports"
    )
    hand_number = models.PositiveIntegerField(_("hand"), null=True, blank=True)
    # {"table": id, "hand": n, "chat": [{"author": id, "name": ..., "text": ..., "time": iso}]}
    evidence = models.JSONField(_("evidence"), default=dict)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    created = models.DateTimeField(_("made"), auto_now_add=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports_handled",
    )
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        indexes = [models.Index(fields=["status", "created"])]

    def __str__(self):
        return f"report #{self.pk} on {self.reported_id}"


class Sanction(models.Model):
    """What staff did to an account: a warning (told once, nothing barred), a chat mute or a
    suspension until ``until``. A suspended account cannot sit, chat, follow or invite."""

    class Kind(models.TextChoices):
        WARN = "warn", _("warning")
        MUTE = "mute", _("chat muted")
        SUSPEND = "suspend", _("suspended")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="sanctions",
        verbose_name=_("player"),
    )
    kind = models.CharField(max_length=8, choices=Kind.choices, verbose_name=_("kind"))
    reason = models.CharField(max_length=200, verbose_name=_("reason"))
    created = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    # none for a warning
    until = models.DateTimeField(null=True, blank=True, verbose_name=_("until"))
    lifted = models.DateTimeField(null=True, blank=True, verbose_name=_("lifted"))
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="sanctions_given",
        verbose_name=_("staff member"),
    )
    report = models.ForeignKey(
        Report,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="sanctions",
        verbose_name=_("report"),
    )
    # when the player first saw it (a warning is shown until then)
    seen = models.DateTimeField(null=True, blank=True, verbose_name=_("seen"))

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["user", "kind", "until"])]
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")

    def __str__(self):
        return f"{self.kind} {self.user_id} until {self.until}"


class Rematch(models.Model):
    """The rematch asked for at a finished table (games.social.rematch): who accepted, who
    declined and when, and the table it started once every player still in had accepted."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="rematch")
    accepted = models.JSONField(default=list)  # user ids
    declined = models.JSONField(default=dict)  # user id (a string, as JSON keys are) -> ISO time
    created = models.DateTimeField(auto_now_add=True)
    started = models.OneToOneField(
        Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch_of"
    )

    class Meta:
        verbose_name = _("rematch")
        verbose_name_plural = _("rematches")

    def __str__(self):
        return f"rematch of table {self.table_id}"


class TournamentSchedule(models.Model):
    """A tournament that comes back every week at the same local time (games.arena.schedule):
    Celery beat makes its tournaments a few days ahead, each from this row's choices."""

    name = models.CharField(max_length=80, verbose_name=_("name"))
    # the tables' options, as a table's (games.policy): rules and policy in one mapping
    options = models.JSONField(default=dict, verbose_name=_("table options"))
    rated = models.BooleanField(default=True, verbose_name=_("rated"))
    bots = models.BooleanField(default=False, verbose_name=_("bots may fill seats"))
    minutes = models.PositiveSmallIntegerField(default=60, verbose_name=_("length in minutes"))
    weekday = models.PositiveSmallIntegerField(
        choices=[
            (0, _("Monday")),
            (1, _("Tuesday")),
            (2, _("Wednesday")),
            (3, _("Thursday")),
            (4, _("Friday")),
            (5, _("Saturday")),
            (6, _("Sunday")),
        ],
        verbose_name=_("weekday"),
    )
    at = models.TimeField(verbose_name=_("local start time"))
    timezone = models.CharField(
        max_length=40, default="Europe/Istanbul", verbose_name=_("time zone")
    )
    days_ahead = models.PositiveSmallIntegerField(default=7, verbose_name=_("made days ahead"))
    active = models.BooleanField(default=True, verbose_name=_("active"))

    class Meta:
        ordering = ["weekday", "at"]
        verbose_name = _("recurring tournament")
        verbose_name_plural = _("recurring tournaments")

    def __str__(self):
        return self.name


class Tournament(models.Model):
    """An arena (games.arena): players join during a fixed window and are paired again into
    four-seat tables of its options as soon as they wait; points by place, with a streak bonus."""

    name = models.CharField(max_length=80, verbose_name=_("name"))
    # every table's options (games.policy), checked when the tournament is scheduled; the
    # tournament's own ``rated`` and ``bots`` decide the tables' practice and bots_fill
    options = models.JSONField(default=dict, verbose_name=_("table options"))
    rated = models.BooleanField(default=True, verbose_name=_("rated"))
    bots = models.BooleanField(default=False, verbose_name=_("bots may fill seats"))
    starts = models.DateTimeField(db_index=True, verbose_name=_("starts"))
    minutes = models.PositiveSmallIntegerField(verbose_name=_("length in minutes"))
    # when the last game ended after the time was up: the standings are final from then on
    finished = models.DateTimeField(null=True, blank=True, verbose_name=_("finished"))
    created = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments_made",
        verbose_name=_("scheduled by"),
    )
    schedule = models.ForeignKey(
        TournamentSchedule,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("recurring tournament"),
    )

    class Meta:
        ordering = ["starts", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["schedule", "starts"],
                condition=Q(schedule__isnull=False),
                name="tournament_once_per_schedule_start",
            ),
        ]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self):
        return self.name

    @property
    def ends(self):
        return self.starts + timedelta(minutes=self.minutes)


class Entrant(models.Model):
    """A player in a tournament: their standing, their results game by game, and where they
    are (waiting in the pool, at a table, or paused)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    joined = models.DateTimeField(auto_now_add=True)
    # wants to play: in the pool or at a table; False when paused (or they left a game)
    active = models.BooleanField(default=True)
    waiting_since = models.DateTimeField(null=True, blank=True)  # in the pool since
    table = models.ForeignKey(
        Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="entrants"
    )
    # who sat at their last table: the pairing avoids seating them together again at once
    mates = models.JSONField(default=list)
    points = models.IntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0)  # games won in a row
    games = models.PositiveSmallIntegerField(default=0)
    wins = models.PositiveSmallIntegerField(default=0)
    # one line per game, in order (games.arena.points): table, place, points, doubled, left
    results = models.JSONField(default=list)

    class Meta:
        ordering = ["tournament_id", "-points", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entrant_once"),
        ]
        indexes = [models.Index(fields=["tournament", "-points"], name="entrant_standing")]
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")

    def __str__(self):
        return f"{self.user_id} in tournament {self.tournament_id}: {self.points}"

    @property
    def on_fire(self) -> bool:
        return self.streak >= 2
