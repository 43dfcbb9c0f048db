"""The dependencies are locked: each lock file pins every package of its part of pyproject.toml
to one version with the hashes of its files, and bin/ensure-venv installs from it with hashes
required (so a changed pyproject.toml without `make lock` fails here, not on a fresh machine)."""

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def name_of(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def pins(lock: str) -> dict[str, list[str]]:
    """{package: its hashes} of a lock file."""
    out, current = {}, None
    for line in (ROOT / lock).read_text().splitlines():
        m = re.match(r"^([A-Za-z0-9._-]+)==\S+", line)
        if m:
            current = m.group(1).lower().replace("_", "-").replace(".", "-")
            out[current] = []
        for h in re.findall(r"--hash=sha256:([0-9a-f]{64})", line):
            out[current].append(h)
    return out


@pytest.mark.parametrize(
    "lock, requirements",
    [
        ("requirements.lock", PROJECT["dependencies"]),
        (
            "requirements-test.lock",
            PROJECT["dependencies"] + PROJECT["optional-dependencies"]["test"],
        ),
    ],
)
def test_every_dependency_is_pinned_with_hashes(lock, requirements):
    pinned = pins(lock)
    for requirement in requirements:
        assert name_of(requirement).replace(".", "-") in pinned, f"{requirement} not in {lock}"
    assert all(hashes for hashes in pinned.values())
    assert not any(re.match(r"(torch|nvidia-|cuda)", name) for name in pinned)


def test_the_venv_is_installed_from_the_lock_with_hashes_required():
    script = (ROOT / "bin" / "ensure-venv").read_text()
    assert "--require-hashes" in script and "requirements-test.lock" in script
    assert "make lock" in (ROOT / "README.md").read_text()
