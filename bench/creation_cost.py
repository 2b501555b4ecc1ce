"""PostgreSQL's CPU per sizing creation as an account's sizings build up.

A throwaway database (migrated, the shipped catalog, one account) is filled with 1k, 10k and
50k sizings of that account, once all queued (a backlog no worker drains, as the load benches
leave it) and once all finished (the history of an account whose sizings ran). At each count
it runs `--transactions` creating transactions as `POST /v1/sizings` does
(`service.sizings.stage`, `service.allowances.hold_active_slot`, the commit; no send) and reads
the server process's CPU from /proc before and after (the server runs on this machine; /proc
counts in ticks of 10 ms, so 2000 transactions resolve 0.005 ms); with `--explain`, the plans
of the statements one creation runs, trigger bodies included (auto_explain). Run:
`.venv/bin/python bench/creation_cost.py [--transactions N] [--rows 1000 10000 50000]
[--explain]`.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import text
from sqlalchemy.orm import Session

from bench.databases import drop_postgres_database, new_postgres_database, prepare
from catalog.queries import version_key
from service import allowances, create_app, db, sizings
from service.accounts import Principal
from service.config import Config
from service.records import ApiKey, Sizing

TICKS_PER_S = os.sysconf("SC_CLK_TCK")
REQUEST = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10, "nodes": {"min": 1, "max": 2}}
# Caps so high nothing is refused: the count's cost, not a refusal's, is measured.
CONFIG = Config(database_url="postgresql://unused", active_sizings_per_account=10**9,
                active_sizings_from_publishable_keys=10**9)


def backend_cpu_s(session: Session) -> float:
    """User and system CPU of the session's PostgreSQL server process so far."""
    pid = session.execute(text("SELECT pg_backend_pid()")).scalar_one()
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS_PER_S


def staged(session: Session, principal: Principal, version_id: int) -> dict:
    """A new sizing's columns, as `POST /v1/sizings` stages them."""
    return sizings.stage(session, REQUEST, principal, None, version_id)[2]


def fill(session: Session, principal: Principal, rows: int, status: str) -> None:
    """The account's sizings brought to `rows`, each in `status`, in one statement."""
    have = session.query(Sizing).filter_by(account_id=principal.account_id).count()
    session.execute(text(
        "INSERT INTO sizings (id, account_id, api_key_id, origin, status, request, progress, "
        "catalog_version_id, created_at, updated_at, attempts, cancel_requested) "
        "SELECT gen_random_uuid()::text, :account, :key, 'api', :status, '{}'::json, 1.0, 1, "
        "now(), now(), 1, false FROM generate_series(1, :count)"),
        {"account": principal.account_id, "key": principal.key_id, "status": status,
         "count": rows - have})
    session.commit()
    session.connection().exec_driver_sql("ANALYZE sizings")
    session.commit()


def creations(session: Session, principal: Principal, version_id: int,
              transactions: int) -> float:
    """ms of the server's CPU per creating transaction; each one's row deleted again after, so
    the account's count stays where `fill` put it."""
    made = []
    started = backend_cpu_s(session)
    for _ in range(transactions):
        values = staged(session, principal, version_id)
        allowances.hold_active_slot(session, principal, CONFIG, values)
        session.commit()
        made.append(values["id"])
    cpu = backend_cpu_s(session) - started
    session.expunge_all()
    session.execute(Sizing.__table__.delete().where(Sizing.id.in_(made)))
    session.commit()
    return cpu / transactions * 1000


def explain(session: Session, principal: Principal, version_id: int) -> None:
    """The plans of the statements one creation runs, trigger bodies included, as
    PostgreSQL's auto_explain reports them to this client; the creation is rolled back."""
    connection = session.connection()
    plans: list[str] = []
    driver = connection.connection.driver_connection
    driver.add_notice_handler(lambda notice: plans.append(notice.message_primary))
    # SET LOCAL: the rollback ends them, so no later statement of this connection is explained.
    connection.exec_driver_sql("LOAD 'auto_explain'")
    for setting in ("log_min_duration = 0", "log_analyze = on", "log_buffers = on",
                    "log_timing = off", "log_nested_statements = on"):
        connection.exec_driver_sql(f"SET LOCAL auto_explain.{setting}")
    connection.exec_driver_sql("SET LOCAL client_min_messages = log")
    allowances.hold_active_slot(session, principal, CONFIG,
                                staged(session, principal, version_id))
    session.rollback()
    session.expunge_all()
    for plan in plans:
        print("    " + plan.replace("\n", "\n    "))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transactions", type=int, default=2000)
    parser.add_argument("--rows", type=int, nargs="+", default=[1000, 10000, 50000])
    parser.add_argument("--explain", action="store_true", help="print the statements' plans")
    args = parser.parse_args()
    for status in ("queued", "succeeded"):
        url = new_postgres_database()
        try:
            prepare(url)
            app = create_app(Config(database_url=url))
            with app.app_context():
                session = db.session()
                key = session.query(ApiKey).one()
                principal = Principal(account_id=key.account_id, key_id=key.id, kind="secret",
                                      scopes=frozenset(key.scopes))
                version_id = version_key(session)[0]
                for rows in args.rows:
                    fill(session, principal, rows, status)
                    creations(session, principal, version_id, 200)  # warm-up
                    ms = creations(session, principal, version_id, args.transactions)
                    print(f"{rows:>6} sizings {status}: {ms:.3f} ms of PostgreSQL CPU per "
                          "creating transaction")
                    if args.explain:
                        explain(session, principal, version_id)
                session.close()
                db.engine().dispose()
        finally:
            drop_postgres_database(url)


if __name__ == "__main__":
    main()
