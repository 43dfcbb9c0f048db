"""Table chat: short, rate-limited messages, stored as typed and escaped when rendered."""

from datetime import timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError
from games.models import ChatMessage, Table
from games.sanctions import chat_refusal
from games.table.chat_view import chat_line
from games.table.guests import guest_refuse
from games.table.privacy import table_open_to
from games.table.publish import account_group, messages_send, table_group
from games.table.render import chat_line_html, in_every_language

CHAT_MAX_LENGTH = 200


CHAT_BURST = 5  # messages per CHAT_WINDOW per user, all tables together


CHAT_WINDOW = timedelta(seconds=10)


def chat_post(*, table_id, user, text) -> ChatMessage:
    if user is None or not getattr(user, "is_authenticated", False):
        raise ServiceError("not_signed_in", _("Sign in to chat."))
    guest_refuse(user)
    if not isinstance(text, str):
        raise ServiceError("malformed", _("That message is not text."))
    text = " ".join(text.split())  # one line: no newlines or runs of spaces
    if not text:
        raise ServiceError("chat_empty", _("Write something first."))
    if len(text) > CHAT_MAX_LENGTH:
        raise ServiceError(
            "chat_long", _("A message may be at most %(n)d characters.") % {"n": CHAT_MAX_LENGTH}
        )
    with transaction.atomic():
        table = Table.objects.filter(pk=table_id).first() if isinstance(table_id, int) else None
        if table is None or not table_open_to(table, user):
            raise ServiceError("no_table", _("There is no such table."))
        # A socket keeps the user it opened with: an account deleted or deactivated since then
        # must not go on writing from a page left open.
        if not get_user_model().objects.filter(pk=user.pk, is_active=True).exists():
            raise ServiceError("not_signed_in", _("Sign in to chat."))
        # and one suspended or muted by staff since it opened stops at once
        refusal = chat_refusal(user)
        if refusal is not None:
            raise refusal
        # per user, not per table: one account at many tables is still one writer
        recent = ChatMessage.objects.filter(
            user=user, created__gte=timezone.now() - CHAT_WINDOW
        ).count()
        if recent >= CHAT_BURST:
            raise ServiceError("chat_fast", _("You are writing too fast; wait a few seconds."))
        message = ChatMessage.objects.create(table=table, user=user, text=text)
        transaction.on_commit(partial(chat_publish, table.pk, message))
    return message


def chat_prune(*, now=None) -> int:
    """Delete the chat older than OKEY_CHAT_KEEP; how many messages went. A beat task runs it."""
    cutoff = (now or timezone.now()) - settings.OKEY_CHAT_KEEP
    deleted, _counts = ChatMessage.objects.filter(created__lt=cutoff).delete()
    return deleted


def chat_publish(table_id: int, message: ChatMessage) -> None:
    line = chat_line(message)
    html = in_every_language(lambda: chat_line_html(line))
    # the author goes along so that the socket of a viewer who blocked them drops the line
    event = {"type": "chat.line", "html": html, "author": message.user_id}
    messages_send([(table_group(table_id), event)])


def chat_hide_publish(user_id: int, author_id: int) -> None:
    """``user_id`` blocked ``author_id``: their open tables drop that author's lines from now."""
    messages_send([(account_group(user_id), {"type": "chat.hide", "author": author_id})])
