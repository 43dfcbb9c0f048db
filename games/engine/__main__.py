"""`python -m games.engine judge`: the rules engine's command line (docs/rules.md)."""

from __future__ import annotations

import sys

from .judge import judge_stream

USAGE = "usage: python -m games.engine judge  (JSON lines on stdin, one JSON answer per line)"


def main(argv: list[str]) -> int:
    if argv != ["judge"]:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        judge_stream(sys.stdin.buffer, sys.stdout.buffer)
    except (BrokenPipeError, KeyboardInterrupt):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
