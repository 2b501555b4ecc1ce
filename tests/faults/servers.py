"""Private servers for fault tests and benchmarks: Redis, a PostgreSQL cluster, the API, workers.

Every process runs in its own process group on a spare loopback port, so a test can stop,
kill or restart it without touching the machine's own PostgreSQL and Redis.
"""

from __future__ import annotations

import glob
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import create_engine, text

REPO_ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(check, timeout_s: float, what: str, interval_s: float = 0.1):
    deadline = time.monotonic() + timeout_s
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout_s:.0f} s waiting for {what}")
        time.sleep(interval_s)


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class Process:
    """A child in its own session (process group), stopped with its whole group."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str] | None = None,
                 log_path: Path | None = None, cwd: Path = REPO_ROOT):
        self.name = name
        self.argv = argv
        self.env = {**os.environ, **(env or {})}
        self.log_path = log_path
        self.cwd = cwd
        self.popen: subprocess.Popen | None = None

    def start(self) -> Process:
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        try:
            self.popen = subprocess.Popen(self.argv, env=self.env, cwd=self.cwd, stdout=log,
                                          stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                          start_new_session=True)
        finally:
            if log is not subprocess.DEVNULL:
                log.close()
        return self

    @property
    def pid(self) -> int:
        assert self.popen is not None
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def signal_group(self, sig: int) -> None:
        if self.popen is None:
            return
        try:
            os.killpg(self.popen.pid, sig)
        except ProcessLookupError:
            pass

    def kill(self) -> None:
        """SIGKILL to the whole group: no shutdown handlers run, as when a machine dies."""
        self.signal_group(signal.SIGKILL)
        if self.popen is not None:
            self.popen.wait(timeout=10)

    def stop(self, timeout_s: float = 10) -> None:
        if self.popen is None:
            return
        if self.popen.poll() is None:
            self.signal_group(signal.SIGTERM)
            try:
                self.popen.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                pass
        # Children left behind by a parent that exited are still in the group.
        self.signal_group(signal.SIGKILL)
        try:
            self.popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass

    def log_text(self) -> str:
        if self.log_path and self.log_path.exists():
            return self.log_path.read_text(errors="replace")
        return ""

    def group_pids(self) -> list[int]:
        """Pids of every process in this group (the parent and its forked workers)."""
        if self.popen is None:
            return []
        out = []
        for stat in glob.glob("/proc/[0-9]*/stat"):
            try:
                fields = Path(stat).read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == self.popen.pid:  # field 5 of stat: the process group
                out.append(int(stat.split("/")[2]))
        return out


def peak_rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


class RedisServer:
    """A redis-server that, like the machine's, keeps nothing on disk across a restart."""

    def __init__(self, workdir: Path, port: int | None = None):
        self.port = port or free_port()
        self.workdir = workdir
        self.process: Process | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = Process("redis", [
            shutil.which("redis-server") or "redis-server", "--port", str(self.port),
            "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(self.workdir),
        ], log_path=self.workdir / "redis.log").start()
        wait_until(lambda: port_open(self.port), 10, "redis to listen")

    def stop(self) -> None:
        if self.process:
            self.process.stop()
        wait_until(lambda: not port_open(self.port), 10, "redis to stop")


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise RuntimeError(f"PostgreSQL's {name} is not installed under /usr/lib/postgresql")
    return found[-1]


class PostgresCluster:
    """A throwaway PostgreSQL cluster (initdb into a temporary folder), started with pg_ctl."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.datadir = Path(tempfile.mkdtemp(prefix="sizing-faults-pg-"))
        self.run_as: list[str] = []
        if os.geteuid() == 0:
            # initdb refuses to run as root; the cluster belongs to the postgres user.
            shutil.chown(self.datadir, "postgres", "postgres")
            self.run_as = ["runuser", "-u", "postgres", "--"]
        self.initialised = False

    def _run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run([*self.run_as, *argv], cwd="/", capture_output=True, text=True,
                              check=check, timeout=120)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        data = self.datadir / "data"
        if not self.initialised:
            self._run(_pg_bin("initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                      "--no-sync", "-E", "UTF8")
            self.initialised = True
        options = (f"-p {self.port} -k {self.datadir} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                   "-c max_connections=200")
        self._run(_pg_bin("pg_ctl"), "-D", str(data), "-o", options, "-l",
                  str(self.datadir / "postgres.log"), "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        if not self.initialised:
            return
        self._run(_pg_bin("pg_ctl"), "-D", str(self.datadir / "data"), "-m", mode, "-w", "stop",
                  check=False)

    def running(self) -> bool:
        return port_open(self.port)

    def destroy(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.datadir, ignore_errors=True)

    def create_database(self, name: str) -> str:
        admin = create_engine(self.url(), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
        return self.url(name)


# Rate limits and the active-sizing caps out of the way, for servers that take many requests
# on purpose (load, faults); the tests of those limits set their own.
LOAD_TEST_ENV = {"RATE_LIMIT_PER_MINUTE": "1000000000",
                 "ACCOUNT_RATE_LIMIT_PER_MINUTE": "1000000000",
                 "PUBLISHABLE_RATE_LIMIT_PER_ADDRESS": "1000000000",
                 "AUTH_FAILURES_PER_ADDRESS": "1000000000",
                 "ACTIVE_SIZINGS_PER_ACCOUNT": "1000000000",
                 "ACTIVE_SIZINGS_FROM_PUBLISHABLE_KEYS": "1000000000"}


def service_env(database_url: str, redis_url: str | None, **extra: str) -> dict[str, str]:
    env = {"DATABASE_URL": database_url, "PYTHONUNBUFFERED": "1",
           "PYTHONPATH": str(REPO_ROOT)}
    if redis_url:
        env["REDIS_URL"] = redis_url
    env.update(extra)
    return env


class ApiServer:
    """The API under gunicorn, as deployed: several processes, threads in each."""

    def __init__(self, workdir: Path, env: dict[str, str], app: str = "service:create_app()",
                 workers: int = 2, threads: int = 4, port: int | None = None):
        self.port = port or free_port()
        self.process = Process("api", [
            str(VENV_BIN / "gunicorn"), "-c", "python:service.gunicorn_conf",
            "--bind", f"127.0.0.1:{self.port}",
            "--workers", str(workers), "--threads", str(threads), "--timeout", "60",
            "--graceful-timeout", "5", app,
        ], env=env, log_path=workdir / f"api-{self.port}.log")

    def start(self, probe: str = "/healthz") -> ApiServer:
        self.process.start()

        def up() -> bool:
            if not self.process.alive():
                raise RuntimeError(f"the API exited:\n{self.process.log_text()[-3000:]}")
            try:
                return request(self.port, "GET", probe)[0] == 200
            except OSError:
                return False

        wait_until(up, 60, "the API to answer")
        return self

    def stop(self) -> None:
        self.process.stop()

    def worker_pids(self) -> list[int]:
        return [pid for pid in self.process.group_pids() if pid != self.process.pid]


NGINX = Path("/usr/sbin/nginx")
NGINX_TEMPLATE = REPO_ROOT / "deploy" / "nginx" / "sizing.conf.template"
# What the official image's entrypoint does to a template: ${NAME} from the environment, with
# nginx's own $variables left alone.
TEMPLATE_VARIABLE = re.compile(r"\$\{([A-Z_]+)\}")


def render_template(text: str, values: dict[str, str]) -> str:
    return TEMPLATE_VARIABLE.sub(lambda m: values.get(m.group(1), m.group(0)), text)


class NginxServer:
    """Debian's nginx with the deployment's config, in front of an API server, as an
    unprivileged process (as `nobody` when the tests run as root) on a spare port."""

    def __init__(self, workdir: Path, upstream_port: int, port: int | None = None):
        self.port = port or free_port()
        # Its own folder outside the test's (which only root may enter), like the PostgreSQL
        # cluster's; the log of the process stays with the test's.
        self.workdir = Path(tempfile.mkdtemp(prefix="sizing-nginx-"))
        site = render_template(NGINX_TEMPLATE.read_text(), {
            "SIZING_LISTEN": f"127.0.0.1:{self.port}", "SIZING_UPSTREAM": f"127.0.0.1:{upstream_port}"})
        (self.workdir / "sizing.conf").write_text(site)
        (self.workdir / "nginx.conf").write_text(f"""
worker_processes 1;
pid {self.workdir}/nginx.pid;
error_log {self.workdir}/error.log warn;
events {{ worker_connections 512; }}
http {{
    access_log {self.workdir}/access.log;
    client_body_temp_path {self.workdir}/body;
    proxy_temp_path {self.workdir}/proxy;
    fastcgi_temp_path {self.workdir}/fastcgi;
    uwsgi_temp_path {self.workdir}/uwsgi;
    scgi_temp_path {self.workdir}/scgi;
    include {self.workdir}/sizing.conf;
}}
""")
        run_as: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.workdir, "nobody", "nogroup")
            for path in self.workdir.iterdir():
                shutil.chown(path, "nobody", "nogroup")
            run_as = ["runuser", "-u", "nobody", "--"]
        self.process = Process("nginx", [
            *run_as, str(NGINX), "-p", str(self.workdir), "-c", str(self.workdir / "nginx.conf"),
            "-e", str(self.workdir / "error.log"), "-g", "daemon off;",
        ], log_path=workdir / f"nginx-{self.port}.log", cwd=Path("/"))

    def start(self) -> NginxServer:
        if not NGINX.exists():
            raise RuntimeError("nginx is not installed: `bash scripts/install-nginx.sh`")
        self.process.start()

        def up() -> bool:
            if not self.process.alive():
                raise RuntimeError(f"nginx exited:\n{self.process.log_text()[-3000:]}\n"
                                   f"{self.error_log()[-3000:]}")
            return port_open(self.port)

        wait_until(up, 20, "nginx to listen")
        return self

    def error_log(self) -> str:
        path = self.workdir / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        self.process.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)


class Worker:
    """A Celery worker process (and its pool), started from a module that exposes `celery`."""

    def __init__(self, workdir: Path, name: str, env: dict[str, str],
                 app: str = "tasks.worker", concurrency: int = 1):
        self.name = name
        self.process = Process(f"worker-{name}", [
            str(VENV_BIN / "celery"), "-A", app, "worker", "--pool", "prefork",
            "--concurrency", str(concurrency), "--hostname", f"{name}@%h", "--loglevel", "INFO",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ], env=env, log_path=workdir / f"worker-{name}.log")

    def start(self, wait: bool = True) -> Worker:
        self.process.start()
        if wait:
            self.wait_ready()
        return self

    def wait_ready(self, timeout_s: float = 90) -> None:
        def ready() -> bool:
            if not self.process.alive():
                raise RuntimeError(f"worker {self.name} exited:\n{self.process.log_text()[-3000:]}")
            return " ready." in self.process.log_text()

        wait_until(ready, timeout_s, f"worker {self.name} to be ready", 0.2)

    def stop(self) -> None:
        self.process.stop()

    def kill(self) -> None:
        self.process.kill()


def request(port: int, method: str, path: str, body=None, key: str | None = None,
            headers: dict[str, str] | None = None, timeout_s: float = 30,
            connection: http.client.HTTPConnection | None = None):
    """One HTTP request on loopback; returns (status, headers, parsed JSON or None)."""
    conn = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=timeout_s)
    all_headers = dict(headers or {})
    payload = None
    if body is not None:
        payload = json.dumps(body).encode()
        all_headers["Content-Type"] = "application/json"
    if key:
        all_headers["Authorization"] = f"Bearer {key}"
    try:
        conn.request(method, path, body=payload, headers=all_headers)
        response = conn.getresponse()
        raw = response.read()
        kind = response.getheader("Content-Type", "")
        data = json.loads(raw) if raw and "json" in kind else None
        return response.status, dict(response.getheaders()), data
    finally:
        if connection is None:
            conn.close()
