"""deploy/okey.service starts the site at boot as README says: supervisord in the foreground,
every setting from one environment file, started again on failure, a limit of open files far
above the 1,024 that held each daphne to about a thousand sockets; and deploy/okey.env.example
holds every variable that the processes (deploy/programs.conf) and a production start need."""

import configparser
import re
import secrets
import sys
from pathlib import Path

from tests.test_settings import run

ROOT = Path(__file__).resolve().parents[2]


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # systemd's keys are case-sensitive
    parser.read(ROOT / "deploy" / "okey.service")
    return parser


def env_file() -> dict[str, str]:
    values = {}
    for line in (ROOT / "deploy" / "okey.env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


def test_the_unit_runs_supervisord_from_the_environment_file_restarts_and_lifts_the_limit():
    service = unit()["Service"]
    assert service["EnvironmentFile"] == "/etc/okey/okey.env"
    assert service["Restart"] == "on-failure"
    assert int(service["LimitNOFILE"]) >= 65536
    start = service["ExecStart"].split()
    assert start[0].endswith("/.venv/bin/supervisord") and "-n" in start  # in the foreground
    assert start[start.index("-c") + 1].endswith("/deploy/supervisord.conf")
    assert unit()["Install"]["WantedBy"] == "multi-user.target"


def test_the_environment_file_names_every_variable_the_processes_and_production_need(tmp_path):
    values = env_file()
    lines = [
        line
        for name in ("programs.conf", "supervisord.conf")
        for line in (ROOT / "deploy" / name).read_text().splitlines()
        if not line.lstrip().startswith(";")  # not the comments'
    ]
    needed = set(re.findall(r"%\(ENV_([A-Z_]+)\)s", "\n".join(lines)))
    assert needed <= set(values), needed - set(values)
    # the settings start with it, DEBUG off (a real key in place of the placeholder)
    values.update(SECRET_KEY=secrets.token_urlsafe(50), OKEY_VAR_DIR=str(tmp_path / "var"))
    proc = run([sys.executable, "manage.py", "check", "--deploy"], values, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "no issues" in proc.stdout
