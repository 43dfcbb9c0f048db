"""The README opens with the two commands, and CI runs the second one exactly as written."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def fenced_blocks(text: str) -> list[str]:
    return [m.group(1).strip() for m in re.finditer(r"^```[^\n]*\n(.*?)^```", text, re.M | re.S)]


def test_readme_opens_with_run_and_test_commands():
    blocks = fenced_blocks((ROOT / "README.md").read_text())
    assert blocks[:2] == ["make run", "make test"]


def test_ci_runs_the_readme_test_command():
    test_command = fenced_blocks((ROOT / "README.md").read_text())[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.startswith("#!/usr/bin/env bash")
    assert "set -euo pipefail" in ci
    commands = [line.strip() for line in ci.splitlines() if not line.lstrip().startswith("#")]
    assert any(line.endswith(test_command) for line in commands)
    assert "REDIS_URL=redis://127.0.0.1:6379/" in ci
    assert "DATABASE_URL=postgres://" in ci
