"""Celery tasks: thin, each carries the version it expects and does nothing if the table moved on.

A late or repeated delivery is therefore harmless, and nothing relies on revoke().
"""

from celery import shared_task

from games import services


@shared_task
def game_start_task(table_id: int, expected_version: int) -> bool:
    return services.game_start(table_id=table_id, expected_version=expected_version)


@shared_task
def hand_next_task(table_id: int, expected_version: int) -> bool:
    return services.hand_next(table_id=table_id, expected_version=expected_version)
