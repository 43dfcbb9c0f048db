"""The sockets open in this daphne process, counted by user and by client address.

A socket is accepted only while its user and its address hold fewer than OKEY_SOCKETS_PER_USER
and OKEY_SOCKETS_PER_ADDRESS sockets here: one account or one machine cannot tie up a process's
connections and the table reads each socket costs. The counts are this process's own (each
daphne enforces them by itself); they are also what /metrics reports as open sockets.
"""

from collections import Counter

from django.conf import settings


class SocketCounts:
    def __init__(self):
        self.by_user: Counter = Counter()
        self.by_address: Counter = Counter()
        self.total = 0

    def admit(self, user_id: int | None, address: str | None) -> bool:
        """Count one more socket, if the caps allow it; False (nothing counted) if not."""
        if user_id is not None and self.by_user[user_id] >= settings.OKEY_SOCKETS_PER_USER:
            return False
        if address is not None and self.by_address[address] >= settings.OKEY_SOCKETS_PER_ADDRESS:
            return False
        self.by_user[user_id] += user_id is not None
        self.by_address[address] += address is not None
        self.total += 1
        return True

    def release(self, user_id: int | None, address: str | None) -> None:
        for counts, key in ((self.by_user, user_id), (self.by_address, address)):
            if key is not None:
                counts[key] -= 1
                if counts[key] <= 0:
                    del counts[key]
        self.total -= 1


open_sockets = SocketCounts()


def socket_identity(scope) -> tuple[int | None, str | None]:
    """(user id or None for a visitor, client address or None) of a socket's scope."""
    user = scope.get("user")
    user_id = user.pk if user is not None and user.is_authenticated else None
    client = scope.get("client")
    return user_id, (client[0] if client else None)
