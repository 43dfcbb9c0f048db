"""/metrics: Prometheus text for the operators (a token, or a client on this machine), with
moves, the time from a commit to its broadcast, open sockets, Celery's queue and lag, overdue
deadlines and errors by kind."""

import json
import time
from datetime import timedelta

import pytest
import redis
from django.test import Client
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from games import engine
from games.models import Game
from games.table.moves import move_submit
from okeysite.celery import app as celery_app
from tests.games.helpers import hand_state, version_of

pytestmark = pytest.mark.django_db


def scrape(client=None, **extra) -> dict[str, float]:
    response = (client or Client()).get("/metrics", **extra)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for s in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
            samples[f"{s.name}{{{labels}}}" if labels else s.name] = s.value
    return samples


def test_metrics_are_not_public(settings):
    settings.OKEY_METRICS_TOKEN = ""
    assert Client(REMOTE_ADDR="203.0.113.9").get("/metrics").status_code == 404
    # through a proxy the peer is local but the request is not
    forwarded = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert forwarded.get("/metrics").status_code == 404
    assert Client(REMOTE_ADDR="127.0.0.1").get("/metrics").status_code == 200


def test_a_token_opens_metrics_from_anywhere(settings):
    settings.OKEY_METRICS_TOKEN = "s3cret-token-for-prometheus"
    outside = Client(REMOTE_ADDR="203.0.113.9")
    assert outside.get("/metrics", HTTP_AUTHORIZATION="Bearer nope").status_code == 404
    assert outside.get("/metrics").status_code == 404
    ok = outside.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token-for-prometheus")
    assert ok.status_code == 200
    # with a token set, the local address alone is not enough
    assert Client(REMOTE_ADDR="127.0.0.1").get("/metrics").status_code == 404


def test_a_move_counts_and_its_broadcast_is_timed(
    playing, users, django_capture_on_commit_callbacks
):
    before = scrape()
    state = hand_state(playing)
    with django_capture_on_commit_callbacks(execute=True):
        move_submit(
            table_id=playing.pk,
            user=users[0],
            move={"kind": "discard", "tile": engine.format_tile(state.racks[0][0])},
            expected_version=version_of(playing),
        )
    after = scrape()
    assert after["okey_moves_total"] == before.get("okey_moves_total", 0) + 1
    count = "okey_event_broadcast_seconds_count"
    assert after[count] == before.get(count, 0) + 1


def test_refusals_count_by_kind(client, playing, users):
    before = scrape().get("okey_errors_total{kind=refused_stale}", 0)
    client.force_login(users[0])
    client.post(f"/table/{playing.pk}/move/", {"kind": "draw", "version": 1})
    assert scrape()["okey_errors_total{kind=refused_stale}"] == before + 1


def test_overdue_deadlines_are_counted(playing):
    Game.objects.filter(table=playing).update(deadline=timezone.now() - timedelta(minutes=2))
    assert scrape()["okey_deadlines_overdue"] == 1
    Game.objects.filter(table=playing).update(deadline=timezone.now() + timedelta(minutes=2))
    assert scrape()["okey_deadlines_overdue"] == 0


def test_celery_queue_length_and_the_oldest_tasks_wait(settings, redis_url):
    queue = f"okey-metrics-test-{time.time_ns()}"
    settings.OKEY_METRICS_QUEUES = [queue]
    client = redis.Redis.from_url(redis_url)
    try:
        assert scrape()[f"okey_celery_queue_length{{queue={queue}}}"] == 0
        celery_app.send_task("games.tasks.sweep_task", queue=queue)
        celery_app.send_task("games.tasks.sweep_task", queue=queue)
        oldest = json.loads(client.lindex(queue, -1))
        oldest["headers"]["okey_sent_at"] = time.time() - 30  # as if it had waited 30 s
        client.lset(queue, -1, json.dumps(oldest))
        samples = scrape()
        assert samples[f"okey_celery_queue_length{{queue={queue}}}"] == 2
        assert 29 <= samples[f"okey_celery_task_lag_seconds{{queue={queue}}}"] < 60
    finally:
        client.delete(queue)


def test_open_sockets_are_reported(playing):
    assert "okey_open_sockets" in scrape()


def test_a_scrape_answers_with_the_rest_while_the_database_is_away(monkeypatch):
    from django.db import OperationalError

    def away(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(Game.objects, "filter", away)
    samples = scrape()
    assert "okey_deadlines_overdue" not in samples
    assert "okey_celery_queue_length{queue=celery}" in samples
