"""Starting the servers under test, and measuring their processes (psutil).

``site_run`` runs the site the way README.md says: ``bin/run`` (the release step, then
supervisord with deploy/dev.conf's daphne, Celery workers and beat). ``proc_start`` runs the same
commands (deploy/programs.conf) one by one instead, without supervisord, so that the fault
harness can kill -9 a process and see it stay dead until it restarts it. ``daphne_start`` serves
an application (bench/bare) with daphne.
Every process is started here in its own session and stopped by its own pid.

``Stack.processes`` finds the server's processes by walking the tree under the ones started here
and knows each by what it runs (bench/loadlib/cpu.py); ``Services`` finds PostgreSQL's processes
(by whom they serve) and Redis's; ``Meter`` sums their CPU over a measured window.
"""

from __future__ import annotations

import os
import re
import secrets
import shlex
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from bench.loadlib import cpu

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(ROOT / ".venv" / "bin" / "python")
VENV_BIN = str(ROOT / ".venv" / "bin")

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/okey_load"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/5"


def site_env(database_url: str, redis_url: str, *, debug: bool = False, **extra) -> dict:
    """The environment of every server process: production settings (DEBUG=0) on plain HTTP."""
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        EMAIL_URL=env.get("EMAIL_URL", "consolemail://"),  # production must name it
        DEBUG="1" if debug else "0",
        SECRET_KEY=env.get("SECRET_KEY") or secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",  # no TLS proxy in front of daphne here
        SECURE_HSTS_SECONDS="0",
        LOG_LEVEL=env.get("LOG_LEVEL", "WARNING"),
        OKEY_VAR_DIR=str(ROOT / "var" / "load"),
        PATH=VENV_BIN + os.pathsep + env.get("PATH", ""),
        PYTHONUNBUFFERED="1",
        OKEY_GC_LOG_MS=env.get("OKEY_GC_LOG_MS", "10"),  # the pauses counted in the report
        # every simulated player connects from 127.0.0.1: the cap per address is the site's
        # defence against one machine, not something the benches measure
        SOCKETS_PER_ADDRESS=env.get("SOCKETS_PER_ADDRESS", "100000"),
    )
    env.update({k: str(v) for k, v in extra.items()})
    return env


GC_PAUSE = re.compile(r"gc pause: generation (\d), ([\d.]+) ms(?:, ([\d.]+) ms CPU)?")


def log_offsets(log_dir: Path) -> dict[Path, int]:
    """Where each server log ends now: gc_pauses_since reads what comes after."""
    return {path: path.stat().st_size for path in log_dir.glob("*.log")}


def gc_pauses_since(log_dir: Path, offsets: dict[Path, int]) -> dict:
    """The garbage collector's pauses that the servers logged (okeysite/gc_pauses.py, at least
    OKEY_GC_LOG_MS long) since ``offsets``: how many, the full collections among them, the
    longest and their sum in ms, and the CPU time the process spent in them (the rest of a pause
    it was not running)."""
    pauses = []
    for path in log_dir.glob("*.log"):
        with open(path, "rb") as f:
            f.seek(offsets.get(path, 0))
            text = f.read().decode("utf-8", "replace")
        pauses += [(int(g), float(ms), float(cpu or 0)) for g, ms, cpu in GC_PAUSE.findall(text)]
    return {
        "n": len(pauses),
        "full": sum(1 for g, _, _ in pauses if g == 2),
        "max_ms": max((ms for _, ms, _ in pauses), default=0.0),
        "total_ms": round(sum(ms for _, ms, _ in pauses), 1),
        "cpu_ms": round(sum(cpu for _, _, cpu in pauses), 1),
    }


def db_recreate(database_url: str) -> None:
    """Drop and create the harness's own database (never another one: the name must say load)."""
    import environ
    import psycopg
    from psycopg import sql

    config = environ.Env.db_url_config(database_url)
    name = config["NAME"]
    if "load" not in name and "fault" not in name:
        raise SystemExit(f"refusing to recreate {name!r}: not a load or fault database")
    params = {
        "host": config.get("HOST") or None,
        "port": config.get("PORT") or None,
        "user": config.get("USER") or None,
        "password": config.get("PASSWORD") or None,
    }
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def http_wait(url: str, timeout: float = 90, ok_only: bool = True) -> None:
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=3)
            return
        except urllib.error.HTTPError as e:
            last = e
            if not ok_only:
                return
        except OSError as e:
            last = e
        time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer in {timeout:.0f} s: {last}")


def program_commands(env: dict | None = None, config: str = "deploy/dev.conf") -> dict[str, str]:
    """Each process's command line as supervisord reads ``config`` (its own parser, so exactly
    what it would run), by program name ("web", "worker", "reviews", "beat", ...; a web's first
    process). The %(ENV_X)s values come from ``env`` (default os.environ), with this checkout,
    its .venv and one web for those unset."""
    from supervisor.options import ServerOptions

    env = {
        "OKEY_DIR": str(ROOT), "OKEY_VENV": str(ROOT / ".venv"), "OKEY_HOST": "127.0.0.1",
        "OKEY_PORT": "8000", "OKEY_WEBS": "1", "OKEY_VAR_DIR": str(ROOT / "var"),
        "OKEY_RUN_DIR": str(ROOT / "var"), "OKEY_DEV_INCLUDE": "", **(env or os.environ),
    }  # fmt: skip
    options = ServerOptions()
    options.environ_expansions = {f"ENV_{k}": v for k, v in env.items()}
    section = options.read_config(str(ROOT / config))
    return {group.name: group.process_configs[0].command for group in section.process_group_configs}


@dataclass
class Stack:
    """Server processes started by the harness, by role: daphne, worker, beat, redis, run."""

    env: dict
    log_dir: Path
    popen: dict[str, list[subprocess.Popen]] = field(default_factory=dict)

    def _spawn(self, role, argv, *, log_name=None, env=None) -> subprocess.Popen:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_dir / f"{log_name or role}.log", "ab")  # noqa: SIM115
        proc = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=env or self.env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.popen.setdefault(role, []).append(proc)
        return proc

    # --- starting ---------------------------------------------------------------------------

    def prepare(self) -> None:
        """What bin/run does before it starts the processes."""
        for argv in (
            [PYTHON, "bin/ensure-database"],
            [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"],
            [PYTHON, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        ):
            subprocess.run(argv, cwd=ROOT, env=self.env, check=True, stdout=subprocess.DEVNULL)

    def site_run(self, host: str, port: int) -> None:
        """bin/run itself: supervisord with web, worker, reviews, mail, beat (and announce)."""
        self.env.update(HOST=host, PORT=str(port))
        self._spawn("run", ["bin/run"])
        http_wait(f"http://{host}:{port}/healthz")

    def proc_start(self, role: str, host: str = "127.0.0.1", port: int = 0):
        """One process of deploy/programs.conf (web, worker, reviews, mail or beat) on its own; a web
        listens on ``port`` itself, in place of the socket that supervisord would hand it."""
        env = dict(self.env, OKEY_VENV=str(Path(VENV_BIN).parent))
        command = program_commands(env)[role]
        if role == "web":
            command = command.replace("--fd 0", f"-b {host} -p {port}")
            command = re.sub(r" -e unix:\S+", "", command)  # no socket of its own here
        return self._spawn(
            {"web": "daphne"}.get(role, role),
            shlex.split(command),
            log_name=f"web-{port}" if role == "web" else role,
            env=env,
        )

    def daphne_start(self, port: int, app: str = "okeysite.asgi:application", *, wait=True):
        proc = self._spawn(
            "daphne",
            [VENV_BIN + "/daphne", "-b", "127.0.0.1", "-p", str(port), app],
            log_name=f"daphne-{port}",
        )
        if wait:
            http_wait(f"http://127.0.0.1:{port}/healthz", ok_only=False)
        return proc

    # --- looking at them ------------------------------------------------------------------------

    def processes(self) -> dict[str, list[psutil.Process]]:
        """Every live process under the ones started here, by kind (bench/loadlib/cpu.py): found
        by walking each started process's tree, whatever sits at its top (bin/run and
        supervisord, a shell, daphne itself), and known by what it runs."""
        return processes_under([p.pid for ps in self.popen.values() for p in ps])

    # --- stopping -------------------------------------------------------------------------------

    def stop_role(self, role: str, sig=signal.SIGTERM, timeout: float = 10) -> None:
        procs = self.popen.pop(role, [])
        for p in procs:
            _stop(p, sig, timeout)

    def stop(self) -> None:
        for role in list(self.popen):
            self.stop_role(role)


def _stop(p: subprocess.Popen, sig, timeout: float) -> None:
    """Stop one process we started, then any of its children still alive (by pid)."""
    try:
        family = psutil.Process(p.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        family = []
    if p.poll() is None:
        p.send_signal(sig)
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    for child in family:
        try:
            child.wait(timeout=3)
        except psutil.TimeoutExpired:
            child.kill()
        except psutil.NoSuchProcess:
            pass


def processes_under(roots: list[int]) -> dict[str, list[psutil.Process]]:
    """The processes under ``roots`` (themselves included) by kind."""
    found: dict[int, psutil.Process] = {}
    table: dict[int, tuple[int, list[str], str]] = {}
    for pid in roots:
        try:
            root = psutil.Process(pid)
            family = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            continue
        for q in family:
            try:
                with q.oneshot():
                    table[q.pid] = (q.ppid(), q.cmdline(), q.name())
            except psutil.Error:
                continue
            found[q.pid] = q
    out: dict[str, list[psutil.Process]] = {}
    for pid, kind in cpu.kinds(table, roots).items():
        out.setdefault(kind, []).append(found[pid])
    return out


class Services:
    """PostgreSQL's processes, each by whom it serves (cpu.postgres_roles), and the Redis
    server's, found through the bench's own database and Redis URLs: PostgreSQL's backends by
    ``pg_stat_activity`` (the postmaster is the parent of the harness's own backend), Redis by
    ``INFO server``'s process_id. Looked at again at each sample: a backend starts with each
    connection, and the site renews its connections (CONN_MAX_AGE)."""

    def __init__(self, database_url: str, redis_url: str):
        import environ

        config = environ.Env.db_url_config(database_url)
        self.database = config["NAME"]
        self.params = {
            "host": config.get("HOST") or None,
            "port": config.get("PORT") or None,
            "user": config.get("USER") or None,
            "password": config.get("PASSWORD") or None,
        }
        self.redis_url = redis_url
        self.conn = None
        self.postmaster: psutil.Process | None = None

    def _pg(self):
        import psycopg

        if self.conn is None or self.conn.closed:
            # on the "postgres" database: the harness's own backend never counts as the bench's
            self.conn = psycopg.connect(dbname="postgres", autocommit=True, **self.params)
            pid = self.conn.execute("SELECT pg_backend_pid()").fetchone()[0]
            self.postmaster = psutil.Process(pid).parent()
        return self.conn

    def find(self) -> dict[str, list[psutil.Process]]:
        out: dict[str, list[psutil.Process]] = {"pg_bench": [], "pg_other": [], "pg_shared": []}
        try:
            conn = self._pg()
            rows = conn.execute("SELECT pid, datname, client_port FROM pg_stat_activity").fetchall()
            own = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        except Exception:  # noqa: BLE001  (PostgreSQL not on this machine: no figure)
            rows, own = [], None
        if self.postmaster is not None:
            harness_ports = {
                c.laddr.port for c in psutil.Process().net_connections("tcp") if c.laddr
            }
            excluded = {own} | {pid for pid, _, port in rows if port in harness_ports}
            try:
                children = [c.pid for c in self.postmaster.children()]
            except psutil.Error:
                children = []
            roles = cpu.postgres_roles(
                [(pid, datname) for pid, datname, _ in rows],
                self.postmaster.pid,
                children,
                self.database,
                excluded,
            )
            for pid, role in roles.items():
                try:
                    out[role].append(self.postmaster if pid == self.postmaster.pid else
                                     psutil.Process(pid))  # fmt: skip
                except psutil.Error:
                    pass
        try:
            import redis

            with redis.Redis.from_url(self.redis_url) as client:
                out["redis"] = [psutil.Process(int(client.info("server")["process_id"]))]
        except Exception:  # noqa: BLE001  (Redis not on this machine: no figure)
            pass
        return out

    def redis_foreign(self, pids: list[int], window_s: float) -> int | None:
        """How many of Redis's clients that are not ``pids``'s (the server's and the harness's
        processes) sent it a command within the window (cpu.redis_foreign), or None when Redis
        cannot be asked."""
        ours: set[int] = set()
        for pid in pids:
            try:
                ours |= {c.laddr.port for c in psutil.Process(pid).net_connections("tcp")}
            except psutil.Error:
                pass
        try:
            import redis

            with redis.Redis.from_url(self.redis_url) as client:
                entries = client.client_list()
                me = client.client_id()
        except Exception:  # noqa: BLE001
            return None
        return cpu.redis_foreign([c for c in entries if int(c["id"]) != me], ours, window_s)

    def exited_children_cpu(self) -> float:
        """CPU seconds of the postmaster's children that have exited (and been reaped) since
        the postmaster started."""
        try:
            t = self.postmaster.cpu_times()
            return t.children_user + t.children_system
        except (psutil.Error, AttributeError):
            return 0.0

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


class Meter:
    """CPU (seconds, and share of one core) and memory of process groups over a window.

    ``groups``: role -> processes at the start; ``more`` (() -> the same) is looked at again at
    each sample, and so are ``services`` (PostgreSQL and Redis): a process that appears within
    the window counts from its start, one that exits keeps the CPU it had at the last look.
    """

    def __init__(self, groups: dict[str, list[psutil.Process]], more=None, services=None):
        self.groups = {role: list(ps) for role, ps in groups.items()}
        self.more = more
        self.services: Services | None = services
        self.t0 = 0.0
        self.cpu0: dict[int, float] = {}
        self.cpu_last: dict[int, float] = {}
        self.gone: set[int] = set()  # exited within the window
        self.wall0 = 0.0
        self.peak_rss: dict[str, float] = {}
        self.names: dict[int, str] = {}

    def _cpu(self, p: psutil.Process) -> float:
        """The process's CPU time now, or as last read once it has exited (a database backend
        whose connection closed within the window)."""
        try:
            t = p.cpu_times()
            self.cpu_last[p.pid] = t.user + t.system
        except psutil.Error:
            self.gone.add(p.pid)
        return self.cpu_last.get(p.pid, 0.0)

    def begin(self) -> None:
        self.t0, self.wall0 = time.monotonic(), time.time()
        for ps in self.groups.values():
            for p in ps:
                self.cpu0[p.pid] = self._cpu(p)
                try:
                    self.names[p.pid] = " ".join(p.cmdline())[:100] or p.name()
                except psutil.Error:
                    pass
        self._join()
        self.pg_children0 = self.services.exited_children_cpu() if self.services else 0.0
        self.system0 = psutil.cpu_times()

    def _join(self) -> None:
        """Add the processes (``more``'s, PostgreSQL's, Redis's) started since the last look;
        one started within the window counts from nothing."""
        looked: dict[str, list[psutil.Process]] = {}
        if self.more is not None:
            looked.update(self.more())
        if self.services is not None:
            known = {p.pid for ps in looked.values() for p in ps}
            for role, ps in self.services.find().items():
                # a Redis server started under the harness is already one of its processes
                looked.setdefault(role, []).extend(p for p in ps if p.pid not in known)
        tracked = {p.pid for ps in self.groups.values() for p in ps}
        for role, found in looked.items():
            for p in found:
                if p.pid in tracked:
                    continue
                try:
                    started_within = p.create_time() >= self.wall0
                    self.names[p.pid] = " ".join(p.cmdline())[:100] or p.name()
                except psutil.Error:
                    continue
                self.cpu0[p.pid] = 0.0 if started_within else self._cpu(p)
                self.groups.setdefault(role, []).append(p)
                tracked.add(p.pid)

    def sample(self) -> None:
        self._join()
        for role, ps in self.groups.items():
            rss = 0
            for p in ps:
                self._cpu(p)
                try:
                    rss += p.memory_info().rss
                except psutil.Error:
                    pass
            self.peak_rss[role] = max(self.peak_rss.get(role, 0), rss / 2**20)

    def end(self) -> dict:
        self.sample()
        wall = time.monotonic() - self.t0
        out = {}
        cpu_s = {}
        for role, ps in self.groups.items():
            cpu_s[role] = sum(self._cpu(p) - self.cpu0.get(p.pid, 0.0) for p in ps)
            out[role] = {
                "cpu_s": round(cpu_s[role], 3),
                "cpu_pct_of_core": round(100 * cpu_s[role] / wall, 1),
                "rss_mb_peak": round(self.peak_rss.get(role, 0), 1),
                "processes": len(ps),
            }
            if role in ("daphne", "worker", "reviews", "beat", "other"):
                out[role]["per_process"] = [
                    {
                        "pid": p.pid,
                        "command": self.names.get(p.pid, ""),
                        "cpu_s": round(
                            self.cpu_last.get(p.pid, 0.0) - self.cpu0.get(p.pid, 0.0), 3
                        ),
                        "exited": p.pid in self.gone,
                    }
                    for p in ps
                ]
        if self.services is not None:
            # what the postmaster's children that exited within the window spent and was not
            # seen at a sample: backends that came and went between two looks, the last moments
            # of those seen
            reaped = self.services.exited_children_cpu() - self.pg_children0
            seen = sum(
                self.cpu_last.get(p.pid, 0.0)
                for role in ("pg_bench", "pg_other", "pg_shared")
                for p in self.groups.get(role, [])
                if p.pid in self.gone
            )
            unseen = max(0.0, reaped - seen)
            bench, other = cpu_s.get("pg_bench", 0.0), cpu_s.get("pg_other", 0.0)
            shared = cpu_s.get("pg_shared", 0.0) + unseen
            cpu_s["postgres"] = cpu.postgres_share(bench, other, shared)
            out["postgres"] = {
                "cpu_s": round(cpu_s["postgres"], 3),
                "cpu_pct_of_core": round(100 * cpu_s["postgres"] / wall, 1),
                "rss_mb_peak": round(self.peak_rss.get("pg_bench", 0), 1),
                "processes": len(self.groups.get("pg_bench", [])),
                "bench_backends_s": round(bench, 3),
                "other_backends_s": round(other, 3),
                "shared_s": round(cpu_s.get("pg_shared", 0.0), 3),
                "exited_unseen_s": round(unseen, 3),
            }
        if self.services is not None and "redis" in out:
            server = [p.pid for role, ps in self.groups.items() if role[:3] != "pg_" for p in ps]
            out["redis"]["foreign_clients_active"] = self.services.redis_foreign(server, wall)
        s1 = psutil.cpu_times()

        def busy(t):
            return t.user + t.system + t.nice + getattr(t, "irq", 0) + getattr(t, "softirq", 0)

        def total(t):
            return busy(t) + t.idle + getattr(t, "iowait", 0)

        out["machine"] = {
            "cpu_pct_of_all_cores": round(
                100 * (busy(s1) - busy(self.system0)) / max(1e-9, total(s1) - total(self.system0)),
                1,
            ),
            "cores": psutil.cpu_count(),
        }
        out["cpu_s"] = {role: round(v, 3) for role, v in cpu_s.items()}
        return out


def python_exe() -> str:
    return PYTHON if Path(PYTHON).exists() else sys.executable
