"""Checks that the PostgreSQL and Redis servers the suite talks to are up, and says how to start them."""

from __future__ import annotations

import socket
import sys

from tests.settings import POSTGRES_HOST, POSTGRES_PORT, REDIS_HOST, REDIS_PORT

HOW_TO_START = {
    "PostgreSQL": "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
    "Redis": ("redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save '' "
              "--appendonly no"),
}


def reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


def main() -> int:
    missing = [
        name for name, host, port in (
            ("PostgreSQL", POSTGRES_HOST, POSTGRES_PORT), ("Redis", REDIS_HOST, REDIS_PORT))
        if not reachable(host, port)
    ]
    for name in missing:
        print(f"{name} is not reachable; the suite tests against it for real. Start it with:\n"
              f"    {HOW_TO_START[name]}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
