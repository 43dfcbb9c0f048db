"""The table's chat as its viewers read it: the latest lines, each with its author's name."""

from dataclasses import dataclass

from games.models import ChatMessage
from games.names import player_name

CHAT_SHOWN = 40


@dataclass(frozen=True)
class ChatLine:
    id: int
    author: int
    name: str
    text: str
    time: object


def chat_lines(table_id: int) -> tuple[ChatLine, ...]:
    messages = list(
        ChatMessage.objects.filter(table_id=table_id)
        .select_related("user", "user__profile")
        .order_by("-created", "-id")[:CHAT_SHOWN]
    )
    return tuple(chat_line(m) for m in reversed(messages))


def chat_line(m: ChatMessage) -> ChatLine:
    return ChatLine(
        id=m.pk, author=m.user_id, name=player_name(m.user), text=m.text, time=m.created
    )
