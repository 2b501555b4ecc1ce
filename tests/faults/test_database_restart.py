"""PostgreSQL restarted under load: 503 problems meanwhile, recovery without a restart, no loss."""

from __future__ import annotations

import time

from tests.faults.conftest import Load
from tests.faults.servers import request, wait_until

PROBLEM_JSON = "application/problem+json"


def test_api_answers_503_during_a_database_restart_and_loses_nothing(stack, pg_cluster):
    api = stack.api()
    pids_before = sorted(api.process.group_pids())
    stack.workers("a", "b", FAULTS_LEASE_S="8")
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
    status, _, _ = stack.post_sizing()
    assert status == 202
    after = [a for a in answers if a["method"] == "POST" and a["started"] > restarted_at + 1]
    assert after and after[-1]["status"] == 202
    assert sorted(api.process.group_pids()) == pids_before

    ids = load.accepted_ids()
    states = stack.wait_final(ids, timeout_s=90)
    assert len(states) == len(ids), "a sizing answered 202 is not in the database"
    assert {s["status"] for s in states.values()} == {"succeeded"}
    assert all(a["outcome"] == 1 for a in stack.audit(ids).values())
    # Records committed before a 503 (the commit went through, the answer did not) finish too.
    stuck = stack.rows("SELECT id, status FROM sizings WHERE status NOT IN "
                       "('succeeded', 'failed', 'cancelled')")
    wait_until(lambda: not stack.rows("SELECT id FROM sizings WHERE status NOT IN "
                                      "('succeeded', 'failed', 'cancelled')"), 60,
               f"{len(stuck)} unanswered records to finish")
    ready, _, _ = request(api.port, "GET", "/readyz")
    assert ready == 200
