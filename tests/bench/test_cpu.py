"""bench/load.py's CPU per move: each server process is counted by what it is, under whatever
started it (bin/run and honcho, supervisord, two daphnes), PostgreSQL's CPU is split between the
bench's database and the others', and the server's sum sits beside the bare consumer's."""

from types import SimpleNamespace

import psutil
import pytest

from bench.loadlib import cpu, procs

PY = "/srv/okey/.venv/bin/python"
BIN = "/srv/okey/.venv/bin/"

# pid -> (parent, command line, kernel name)
HONCHO = {
    100: (1, ["bash", "bin/run"], "run"),
    101: (100, [PY, BIN + "honcho", "-f", "Procfile.dev", "start"], "honcho"),
    102: (101, [PY, BIN + "daphne", "-b", "127.0.0.1", "-p", "8500", "x:app"], "daphne"),
    103: (102, [PY, "-c", "from multiprocessing.spawn import spawn_main"], "python"),
    104: (101, ["bash", "bin/supervise", "--", "celery", "-A", "okeysite", "worker"], "bash"),
    105: (104, [PY, BIN + "celery", "-A", "okeysite", "worker", "-Q", "celery"], "celery"),
    106: (105, ["[celeryd: celery@host:ForkPoolWorker-1]"], "celery"),
    107: (101, ["bash", "bin/supervise", "--", "nice", "-n", "10", "celery"], "bash"),
    108: (107, [PY, BIN + "celery", "-A", "okeysite", "worker", "-Q", "reviews"], "celery"),
    109: (101, ["bash", "bin/supervise", "--", "celery", "-A", "okeysite", "beat"], "bash"),
    110: (109, [PY, BIN + "celery", "-A", "okeysite", "beat", "--loglevel", "INFO"], "celery"),
    111: (101, [PY, "bin/announce"], "python"),
    # the second daphne of --webs 2, started by the harness itself
    200: (1, [BIN + "daphne", "-b", "127.0.0.1", "-p", "8501", "x:app"], "daphne"),
    # somebody else's daphne and worker on the machine: under no root, never counted
    300: (1, [PY, BIN + "daphne", "-p", "9000", "x:app"], "daphne"),
    301: (1, [PY, BIN + "celery", "-A", "other", "worker"], "celery"),
}


def test_every_process_under_honcho_counts_by_what_it_runs():
    kinds = cpu.kinds(HONCHO, [100, 200])
    assert kinds == {
        100: "other",
        101: "other",
        102: "daphne",
        103: "daphne",  # any child of daphne is daphne's, whatever it runs
        104: "other",
        105: "worker",
        106: "worker",  # a prefork child, renamed by setproctitle
        107: "other",
        108: "reviews",
        109: "other",
        110: "beat",
        111: "other",
        200: "daphne",
    }
    assert list(kinds)[:3] == [100, 101, 102]  # root first, then depth first


def test_supervisord_with_two_daphnes_on_one_socket():
    table = {
        50: (1, [PY, BIN + "supervisord", "-n", "-c", "deploy/supervisord.conf"], "supervisord"),
        51: (50, [PY, BIN + "daphne", "--fd", "0", "--proxy-headers", "x:app"], "daphne"),
        52: (50, [PY, BIN + "daphne", "--fd", "0", "--proxy-headers", "x:app"], "daphne"),
        53: (50, ["nice", "-n", "10", BIN + "celery", "worker", "--queues=reviews"], "celery"),
        54: (50, [PY, "-m", "celery", "-A", "okeysite", "worker", "-Q", "celery,x"], "python"),
        55: (50, ["/usr/bin/redis-server", "*:0"], "redis-server"),
    }
    assert cpu.kinds(table, [50]) == {
        50: "other",
        51: "daphne",
        52: "daphne",
        53: "reviews",
        54: "worker",
        55: "redis",
    }


@pytest.mark.parametrize(
    ("argv", "program"),
    [
        ([PY, BIN + "daphne", "-p", "1"], "daphne"),
        (["env", "A=1", "nice", "-n", "5", BIN + "celery", "beat"], "celery"),
        (["python3.12", "-u", "-m", "celery.__main__", "worker"], "celery"),
        (["sh", "-c", "exec daphne -p 1 x:app"], ""),  # the shell itself: its child says
        (["bash", "bin/supervise", "--", "celery"], "supervise"),
        ([], ""),
    ],
)
def test_program(argv, program):
    assert cpu.program(argv) == program


def test_postgres_processes_by_whom_they_serve():
    activity = [
        (10, "okey_load"),
        (11, "okey_load"),  # an autovacuum worker on the bench's database
        (12, "okey_test_x"),  # another engineer's tests
        (13, None),  # checkpointer
        (14, "okey_load"),  # the harness's own connection
        (15, "postgres"),  # the harness's query of pg_stat_activity
    ]
    roles = cpu.postgres_roles(activity, 1, [10, 11, 12, 13, 14, 15, 16], "okey_load", {14, 15})
    assert roles == {
        10: "pg_bench",
        11: "pg_bench",
        12: "pg_other",
        13: "pg_shared",
        16: "pg_shared",  # a child not in pg_stat_activity (the logger)
        1: "pg_shared",  # the postmaster
    }


def test_postgres_shared_cpu_goes_by_the_share_of_backends():
    assert cpu.postgres_share(3.0, 1.0, 2.0) == pytest.approx(4.5)
    assert cpu.postgres_share(3.0, 0.0, 2.0) == pytest.approx(5.0)  # alone on the server
    assert cpu.postgres_share(0.0, 0.0, 2.0) == 0.0  # no backend at work: nothing is ours


def test_per_move_groups_and_the_server_without_the_harness():
    cpu_s = {
        "daphne": 1.0,
        "worker": 0.3,
        "reviews": 0.2,
        "beat": 0.01,
        "postgres": 0.5,
        "redis": 0.2,
        "other": 0.09,
        "harness": 5.0,
        "pg_bench": 0.4,  # its parts, already in postgres
    }
    ms = cpu.per_move(cpu_s, 100)
    assert ms == {
        "daphne": 10.0,
        "workers": 5.0,
        "beat": 0.1,
        "postgres": 5.0,
        "redis": 2.0,
        "other": 0.9,
        "server": 23.0,
    }
    assert cpu.per_move(cpu_s, 0) == {}


def test_server_ratios_take_each_kinds_saturation_point():
    def run(kind, scenario, tables, moves_per_s, ms):
        return {
            "kind": kind,
            "scenario": scenario,
            "tables": tables,
            "moves_per_s": moves_per_s,
            "server_cpu_ms_per_move": ms,
            "cpu_ms_per_move": {"server": ms},
        }

    results = [
        run("site", "saturate", 40, 210.0, 8.0),
        run("site", "saturate", 80, 230.0, 9.0),
        run("bare", "saturate", 40, 500.0, 2.0),
        run("bare", "saturate", 80, 600.0, 2.5),
        run("site", "rate", 100, 99.0, 6.0),
    ]
    out = cpu.server_ratios(results)
    assert out["saturate"]["ratio"] == 3.6  # 9.0 / 2.5, the runs with the most moves
    assert out["saturate 40 tables"]["ratio"] == 4.0
    assert out["saturate 80 tables"] | {"site": None, "bare": None} == {
        "site_ms": 9.0,
        "bare_ms": 2.5,
        "ratio": 3.6,
        "site": None,
        "bare": None,
    }
    assert "rate" not in out  # no bare run at the rate


class FakeProc:
    """What Meter reads of a process; ``cpu`` is set by the test, None once it has exited."""

    def __init__(self, pid, cpu_s, created=0.0):
        self.pid, self.cpu, self.created = pid, cpu_s, created

    def cpu_times(self):
        if self.cpu is None:
            raise psutil.NoSuchProcess(self.pid)
        return SimpleNamespace(user=self.cpu, system=0.0)

    def create_time(self):
        return self.created

    def cmdline(self):
        return [f"proc-{self.pid}"]

    def memory_info(self):
        return SimpleNamespace(rss=2**20)


class FakeServices:
    def __init__(self, found):
        self.found, self.reaped = found, 10.0

    def find(self):
        return self.found

    def exited_children_cpu(self):
        return self.reaped

    def redis_foreign(self, pids, window_s):
        self.asked = sorted(pids)
        return 0


def test_meter_counts_children_born_and_dead_within_the_window():
    web, web2 = FakeProc(1, 100.0), FakeProc(2, 50.0)
    bench, other, shared = FakeProc(10, 20.0), FakeProc(11, 5.0), FakeProc(12, 1.0)
    redis = FakeProc(13, 7.0)
    services = FakeServices(
        {"pg_bench": [bench], "pg_other": [other], "pg_shared": [shared], "redis": [redis]}
    )
    children = {"daphne": [web, web2]}
    meter = procs.Meter({"daphne": [web, web2]}, more=lambda: children, services=services)
    meter.begin()
    # within the window: daphne starts a child; a new backend of the bench's database serves a
    # while and exits after a sample, with 0.5 s more after it; another backend comes and goes
    # unseen with 1.5 s
    child = FakeProc(3, 0.0, created=meter.wall0 + 1)
    children["daphne"] = [web, web2, child]
    web.cpu, web2.cpu, child.cpu = 101.0, 50.5, 0.25
    late = FakeProc(14, 2.0, created=meter.wall0 + 1)
    services.found["pg_bench"] = [bench, late]
    meter.sample()
    late.cpu = None
    services.reaped += 2.5 + 1.5
    bench.cpu, other.cpu, shared.cpu, redis.cpu = 23.0, 6.0, 1.5, 7.5
    out = meter.end()
    assert out["cpu_s"]["daphne"] == pytest.approx(1.75)
    assert out["daphne"]["processes"] == 3
    assert out["cpu_s"]["redis"] == pytest.approx(0.5)
    assert services.asked == [1, 2, 3, 13]  # the server's processes, never PostgreSQL's
    # backends: the bench's 3 + 2 (seen), the other's 1; shared 0.5 + unseen 2.0
    assert out["postgres"]["bench_backends_s"] == pytest.approx(5.0)
    assert out["postgres"]["exited_unseen_s"] == pytest.approx(2.0)
    assert out["cpu_s"]["postgres"] == pytest.approx(5.0 + 2.5 * 5 / 6, abs=1e-3)
    ms = cpu.per_move(out["cpu_s"], 10)
    assert ms["server"] == pytest.approx(100 * (1.75 + 0.5 + 5.0 + 2.5 * 5 / 6), abs=0.1)


def test_redis_clients_not_the_sites_that_were_active():
    clients = [
        {"addr": "127.0.0.1:40001", "idle": "0"},  # daphne's
        {"addr": "127.0.0.1:40002", "idle": "3"},  # the worker's
        {"addr": "127.0.0.1:50001", "idle": "1"},  # another engineer's tests
        {"addr": "127.0.0.1:50002", "idle": "600"},  # somebody's, asleep through the window
        {"addr": "/tmp/redis.sock:0", "idle": "2"},  # a unix socket: nobody's of ours
    ]
    assert cpu.redis_foreign(clients, {40001, 40002}, 30.0) == 2
