"""The arena's clock: every few seconds (Celery beat, ``arena_tick_task``) each tournament under
way pairs its waiting players into new tables; once its time is up it pairs nobody, and when
its last game has been counted its standings are final.

A tick carries nothing but the moment it runs: it reads the pool as it is, under the
tournament's lock, so a tick that is late, lost or repeated is harmless (the next one does the
same work, and a player seated by one is no longer in the pool of the next).
"""

import logging
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.arena.entrants import tournament_lock
from games.arena.pairing import Waiting, pool_pair
from games.arena.publish import seated_publish, standings_changed
from games.arena.results import tournament_finish_if_done
from games.models import Entrant, Seat, Table, Tournament
from games.sanctions import suspended_ids
from games.social.blocks import blocked_pairs
from games.table.lifecycle import table_seated_start

logger = logging.getLogger(__name__)


def tournaments_tick(now=None) -> int:
    """Pair every tournament under way, each in its own transaction; how many tables it made.
    A tournament whose pairing fails is logged and skipped: the others still play."""
    now = now or timezone.now()
    made = 0
    running = Tournament.objects.filter(starts__lte=now, finished__isnull=True)
    for tournament_id in running.values_list("pk", flat=True):
        try:
            made += tournament_pair(tournament_id=tournament_id, now=now)
        except Exception:
            logger.exception("arena pairing failed", extra={"tournament": tournament_id})
    return made


def entrants_free(tournament_id: int) -> int:
    """Entrants still marked at a table that will never count a game (staff closed it, or it
    finished without results reaching the tournament): back to the pool, nothing scored."""
    gone = Entrant.objects.filter(tournament_id=tournament_id, table__isnull=False).filter(
        table__status=Table.Status.CLOSED
    )
    now = timezone.now()
    n = 0
    for e in gone.select_for_update().order_by("pk"):
        e.table = None
        e.waiting_since = now if e.active else None
        e.save(update_fields=["table", "waiting_since"])
        n += 1
    return n


def _just_passed(moment, now) -> bool:
    """``moment`` fell within the last two ticks (one of them may have been lost)."""
    return timedelta(0) <= now - moment < timedelta(seconds=2 * settings.OKEY_ARENA_TICK_SECONDS)


def forbidden_pairs(user_ids: list[int]) -> frozenset:
    """The pairs of players who must never share a table: one blocked the other (the social
    room's blocks, which quick play heeds too)."""
    return frozenset(blocked_pairs(user_ids))


def tournament_pair(*, tournament_id: int, now=None) -> int:
    """One pairing of the tournament's waiting pool (games.arena.pairing); how many tables it
    started. Nothing before the start, and nothing once the time is up."""
    now = now or timezone.now()
    with transaction.atomic():
        t = tournament_lock(tournament_id)
        if t.finished or now < t.starts:
            return 0
        freed = entrants_free(t.pk)
        if _just_passed(t.starts, now) or _just_passed(t.ends, now):
            # the pages' countdowns reached the start or the end: they now say what follows
            transaction.on_commit(lambda: standings_changed(t.pk))
        if now >= t.ends:
            if freed:
                transaction.on_commit(lambda: standings_changed(t.pk))
            tournament_finish_if_done(t.pk, now)
            return 0
        ranked = list(
            Entrant.objects.filter(tournament=t)
            .order_by("-points", "-wins", "games", "pk")
            .values_list("pk", flat=True)
        )
        rank = {pk: i for i, pk in enumerate(ranked)}
        waiting = list(
            Entrant.objects.select_for_update()
            .filter(tournament=t, active=True, table__isnull=True)
            .order_by("pk")
        )
        # someone at another table under way (a game of their own, another arena) waits until
        # it is over: nobody is ever seated at two tables at once
        busy = set(
            Seat.objects.filter(
                user_id__in=[e.user_id for e in waiting],
                table__status__in=(Table.Status.STARTING, Table.Status.PLAYING),
            ).values_list("user_id", flat=True)
        )
        # a player suspended by staff while waiting stays in the standings but is seated nowhere
        suspended = suspended_ids([e.user_id for e in waiting], now=now)
        waiting = [e for e in waiting if e.user_id not in busy and e.user_id not in suspended]
        if not waiting:
            return 0
        pool = [
            Waiting(
                user_id=e.user_id,
                rank=rank[e.pk],
                mates=frozenset(e.mates),
                waited=(now - max(e.waiting_since or t.starts, t.starts)).total_seconds(),
            )
            for e in waiting
        ]
        tables = pool_pair(
            pool,
            forbidden=forbidden_pairs([e.user_id for e in waiting]),
            bots=t.bots,
            bot_wait=settings.OKEY_ARENA_BOT_WAIT,
            repeat_wait=settings.OKEY_ARENA_REPEAT_WAIT,
        )
        if not tables:
            return 0
        by_user = {e.user_id: e for e in waiting}
        users = get_user_model().objects.in_bulk([u for seats in tables for u in seats if u])
        seated = []
        for seats in tables:
            table = table_seated_start(
                options=t.options,
                players=[users[u] if u is not None else None for u in seats],
                tournament_id=t.pk,
            )
            for u in seats:
                if u is None:
                    continue
                e = by_user[u]
                e.table, e.waiting_since = table, None
                e.save(update_fields=["table", "waiting_since"])
                seated.append((u, table.pk))
        transaction.on_commit(lambda: seated_publish(t.pk, seated))
        transaction.on_commit(lambda: standings_changed(t.pk))
        return len(tables)
