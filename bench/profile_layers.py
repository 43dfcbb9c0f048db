"""Where a process's CPU goes, by layer and by function, from py-spy's samples.

    py-spy record --pid PID --duration 25 --gil --format raw --output var/profile/daphne.txt
    .venv/bin/python bench/profile_layers.py var/profile/daphne.txt [--moves N] [--top 25]

py-spy's raw format is one line per distinct stack, "frame;frame;...;leaf COUNT", each frame
"function (path:line)". A sample counts for the layer of the innermost frame that belongs to one
(a regular expression on the frame's path, LAYERS below, first match wins), so that the standard
library's work (re, json, a dict) counts for the code that asked for it; a sample with no such
frame counts as "other". Functions are ranked by the samples they were running themselves (self)
and by the samples they were on the stack for (total). With --moves (the moves the run made in
the profile's window) and --rate (py-spy's samples a second, 100 by default), each layer is also
given in ms of the process's CPU a move.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

# (layer, pattern on a frame's path); the first that matches names the layer.
LAYERS = [
    ("engine (rules)", r"games/engine/"),
    ("rendering: i18n", r"django/utils/translation/|/gettext\.py"),
    (
        "rendering: templates",
        r"django/template/|template_partials/|games/templatetags/|games/table/render\.py|django/utils/(html|safestring|formats|numberformat)",
    ),
    ("ORM and SQL", r"psycopg|django/db/|games/table/store\.py"),
    ("logging", r"/logging/|pythonjsonlogger"),
    ("metrics", r"prometheus_client|okeysite/metrics\.py|games/metrics\.py"),
    ("channel layer and Redis client", r"channels_redis/|/redis/|msgpack"),
    (
        "socket stack (daphne, autobahn, twisted, Channels)",
        r"daphne/|autobahn/|twisted/|txaio/|channels/|asgiref/",
    ),
    (
        "site middleware on the socket path",
        r"okeysite/(clients|logcontext)\.py|django/contrib/(auth|sessions)/|django/middleware/",
    ),
    (
        "table: views and publish",
        r"games/table/(reads|publish|views|variants?)\.py|games/(names|labels|policy)\.py",
    ),
    ("table: moves and the rest of the site", r"games/|okeysite/|accounts/"),
    (
        "event loop and threads",
        r"asyncio/|selectors\.py|concurrent/futures|threading\.py|queue\.py",
    ),
]
_LAYER_RE = [(name, re.compile(pattern)) for name, pattern in LAYERS]
_FRAME = re.compile(r"^(?P<func>.*?) \((?P<path>[^()]*?)(?::(?P<line>\d+))?\)$")


def frame_parts(frame: str) -> tuple[str, str]:
    m = _FRAME.match(frame.strip())
    if not m:
        return frame.strip(), ""
    return m.group("func"), m.group("path")


def layer_of(stack: list[str]) -> str:
    for frame in reversed(stack):
        _func, path = frame_parts(frame)
        for name, pattern in _LAYER_RE:
            if pattern.search(path):
                return name
    return "other"


def short(frame: str) -> str:
    func, path = frame_parts(frame)
    for marker in ("site-packages/", "/work/", "lib/python3"):
        if marker in path:
            path = path.split(marker, 1)[1]
    path = re.sub(r"^wt/[^/]+/|^main/", "", path)
    return f"{func} ({path})"


def read(path: Path) -> list[tuple[list[str], int]]:
    out = []
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            out.append((stack.split(";"), int(count)))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("raw", type=Path, nargs="+", help="py-spy record --format raw output(s)")
    p.add_argument("--moves", type=int, help="moves made in the profile's window")
    p.add_argument("--rate", type=float, default=100.0, help="py-spy's samples a second")
    p.add_argument("--top", type=int, default=25)
    args = p.parse_args(argv)
    stacks = [s for path in args.raw for s in read(path)]
    total = sum(n for _, n in stacks)
    layers, own, inclusive = Counter(), Counter(), Counter()
    for stack, n in stacks:
        layers[layer_of(stack)] += n
        own[short(stack[-1])] += n
        for frame in {short(f) for f in stack}:
            inclusive[frame] += n
    per_move = (lambda n: f"{n / args.rate * 1000 / args.moves:5.2f} ms") if args.moves else None
    print(f"{total} samples")
    print("\n| layer | share of samples |" + (" CPU a move |" if per_move else ""))
    print("| --- | --- |" + (" --- |" if per_move else ""))
    for name, n in layers.most_common():
        print(f"| {name} | {100 * n / total:4.1f} % |" + (f" {per_move(n)} |" if per_move else ""))
    print(f"\nfunctions by their own samples (top {args.top})")
    for frame, n in own.most_common(args.top):
        print(f"  {100 * n / total:5.1f} %  {frame}")
    print(f"\nproject functions by the samples they were on the stack for (top {args.top})")
    project = [
        (f, n) for f, n in inclusive.most_common() if re.search(r"\((games|okeysite|accounts)/", f)
    ]
    for frame, n in project[: args.top]:
        print(f"  {100 * n / total:5.1f} %  {frame}")


if __name__ == "__main__":
    main()
