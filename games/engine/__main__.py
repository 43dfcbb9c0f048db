"""`python -m games.engine judge` (docs/rules.md) and `python -m games.engine judge101`
(docs/rules-101.md): the rules engine's command line."""

from __future__ import annotations

import sys

from .judge import judge_answer, judge_stream
from .okey101.judge import judge101_answer

USAGE = (
    "usage: python -m games.engine judge | judge101"
    "  (JSON lines on stdin, one JSON answer per line)"
)


def main(argv: list[str]) -> int:
    if argv not in (["judge"], ["judge101"]):
        print(USAGE, file=sys.stderr)
        return 2
    answer = judge101_answer if argv == ["judge101"] else judge_answer
    try:
        judge_stream(sys.stdin.buffer, sys.stdout.buffer, answer)
    except (BrokenPipeError, KeyboardInterrupt):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
