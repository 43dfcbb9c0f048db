"""The table's chat as its viewers read it: the latest lines, each with its author's name."""

from dataclasses import dataclass

from games.models import Block, ChatMessage
from games.names import player_name

CHAT_SHOWN = 40


@dataclass(frozen=True)
class ChatLine:
    id: int
    author: int
    name: str
    text: str
    time: object


def chat_hidden_from(user_id) -> frozenset[int]:
    """The authors whose chat ``user_id`` does not see: the players they blocked
    (games.social.blocks)."""
    if user_id is None:
        return frozenset()
    return frozenset(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def chat_lines(table_id: int, *, hidden=frozenset()) -> tuple[ChatLine, ...]:
    """The table's last chat lines, without those of the ``hidden`` authors."""
    messages = list(
        ChatMessage.objects.filter(table_id=table_id)
        .exclude(user_id__in=hidden)
        .select_related("user", "user__profile")
        .order_by("-created", "-id")[:CHAT_SHOWN]
    )
    return tuple(chat_line(m) for m in reversed(messages))


def chat_line(m: ChatMessage) -> ChatLine:
    return ChatLine(
        id=m.pk, author=m.user_id, name=player_name(m.user), text=m.text, time=m.created
    )
