"""The game's Prometheus metrics, kept in this process (the /metrics view, okeysite.metrics,
exposes them with the ones it reads when asked).

Each costs an in-memory increment where it is counted: nothing in the move path reads or
writes anything else for them.
"""

from prometheus_client import Counter, Gauge, Histogram

from games.realtime.sockets import open_sockets

MOVES = Counter("okey_moves", "Moves applied through this process (rate() gives moves/s)")
EVENT_BROADCAST_SECONDS = Histogram(
    "okey_event_broadcast_seconds",
    "From a committed change (a move, a table's change) to its broadcast sent, rendering included",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
OPEN_SOCKETS = Gauge("okey_open_sockets", "WebSockets open in this process")
OPEN_SOCKETS.set_function(lambda: open_sockets.total)
ERRORS = Counter(
    "okey_errors",
    "Errors by kind: refused_<code> for a refused action, server_error for a 5xx",
    ["kind"],
)
ERRORS.labels(kind="server_error")  # shown (as 0) before the first one


def refusal_count(code: str) -> None:
    ERRORS.labels(kind=f"refused_{code}").inc()
