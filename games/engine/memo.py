"""A bounded memo for the engine's searches, kept in two generations.

When the newer generation is full it becomes the older one and a new one starts; an entry found
in the older one moves back to the newer. A plain clear would leave the next turns of a
long-lived worker to rebuild everything at once (the slowest turns were those); this keeps what
is still in use, and never holds more than two generations.

The hot paths look in ``new`` themselves (a dict's own ``get``, no method call) and ask
``revive`` only when that misses.
"""

from __future__ import annotations

from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(Generic[K, V]):
    __slots__ = ("limit", "new", "old")

    def __init__(self, limit: int) -> None:
        self.limit = limit  # entries per generation
        self.new: dict[K, V] = {}
        self.old: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        found = self.new.get(key)
        return self.revive(key) if found is None else found

    def revive(self, key: K) -> V | None:
        """The entry from the older generation, moved back to the newer; None if not there."""
        found = self.old.get(key)
        if found is not None:
            self.put(key, found)
        return found

    def put(self, key: K, value: V) -> None:
        if len(self.new) >= self.limit:
            self.old, self.new = self.new, {}
        self.new[key] = value

    def __len__(self) -> int:
        return len(self.new) + len(self.old)
