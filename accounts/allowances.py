"""How often one account may do a thing that costs the site or could be used to guess: counters
in the cache (shared by every web process, like the log-in limits), each for a fixed window."""

from django.core.cache import cache


def allowance_spend(key: str, limit: int, seconds: int) -> bool:
    """Count one more use of ``key``; False once more than ``limit`` fell in its window."""
    cache.add(key, 0, seconds)
    try:
        return cache.incr(key) <= limit
    except ValueError:  # the key expired between add and incr: a new window
        cache.set(key, 1, seconds)
        return True
