"""PostgreSQL restarted under load: 503 problems meanwhile, recovery without a restart, no loss."""

from __future__ import annotations

import time

from tests.faults.conftest import Load
from tests.faults.servers import request

PROBLEM_JSON = "application/problem+json"
LEASE_S = 8


def test_api_answers_503_during_a_database_restart_and_loses_nothing(stack, pg_cluster):
    api = stack.api()
    pids_before = sorted(api.process.group_pids())
    stack.workers("a", "b", SIZING_LEASE_S=str(LEASE_S))
    load = Load(stack, clients=4, per_client=400, pause_s=0.05).start()

    time.sleep(2)
    stopped_at = time.monotonic()
    pg_cluster.stop("fast")
    time.sleep(4)
    restarted_at = time.monotonic()
    pg_cluster.start()
    time.sleep(3)
    load.stop()

    answers = load.answers
    no_answer = [a for a in answers if a["status"] is None]
    assert not no_answer, f"requests got no HTTP answer: {no_answer[:3]}"
    server_errors = [a for a in answers if a["status"] >= 500 and a["status"] != 503]
    assert not server_errors, f"5xx other than 503: {server_errors[:5]}"
    unavailable = [a for a in answers if a["status"] == 503]
    assert unavailable, "the API never said 503 while the database was down"
    assert all(a["content_type"] == PROBLEM_JSON for a in unavailable), unavailable[:3]
    during = [a for a in answers if a["started"] >= stopped_at + 0.5 and a["ended"] <= restarted_at]
    assert during and all(a["status"] == 503 for a in during), during[:5]

    # The same processes serve again once the database is back.
    after = [a for a in answers if a["method"] == "POST" and a["started"] > restarted_at + 1]
    assert after and after[-1]["status"] == 202
    status, _, _ = stack.post_sizing()
    assert status == 202
    assert sorted(api.process.group_pids()) == pids_before
    assert request(api.port, "GET", "/readyz")[0] == 200

    # Every record answered 202 is in the database; every record in the database (some were
    # committed although their answer was a 503) finishes, once.
    ids = load.accepted_ids()
    assert len(stack.states(ids)) == len(ids), "a sizing answered 202 is not in the database"
    every_id = [r["id"] for r in stack.rows("SELECT id FROM sizings")]
    # A run the outage cut short, which could not hand its record back while the database was
    # down, keeps it running until its lease runs out; then the dispatcher has it run again.
    stack.wait_final(every_id, timeout_s=5 * LEASE_S)
    states = stack.states(every_id)
    assert {s["status"] for s in states.values()} <= {"succeeded"}
    audit = stack.audit(every_id)
    assert all(audit[i]["outcome"] == 1 for i in every_id), \
        {i: audit[i] for i in every_id if audit[i]["outcome"] != 1}
