"""A worker killed with SIGKILL in the middle of a sizing: the sizing still finishes, once."""

from __future__ import annotations

import time

from tests.faults.conftest import LARGE_SIZING
from tests.faults.servers import request, wait_until

LEASE_S = 8


def test_sizing_of_a_killed_worker_finishes_exactly_once(stack):
    stack.api()
    knobs = {"FAULTS_LEASE_S": str(LEASE_S)}
    (first,) = stack.workers("a", **knobs)
    status, _, body = stack.post_sizing(LARGE_SIZING)
    assert status == 202
    sizing_id = body["id"]

    wait_until(lambda: stack.states([sizing_id])[sizing_id]["status"] == "running", 60,
               "the first worker to start the sizing")
    time.sleep(0.5)
    first.kill()
    state = stack.states([sizing_id])[sizing_id]
    assert (state["status"], state["attempts"]) == ("running", 1), "killed too late: " + str(state)

    # A second worker takes over once the dead worker's lease runs out; several copies of the
    # message race for the record then, as when a redelivery and two dispatchers all send it.
    stack.workers("b", concurrency=2, **knobs)
    wait_until(lambda: stack.rows(
        "SELECT now() - updated_at > make_interval(secs => :lease) AS stale FROM sizings "
        "WHERE id = :id", lease=LEASE_S, id=sizing_id)[0]["stale"], 60, "the lease to run out")
    for _ in range(3):
        stack.send_run_message(sizing_id)

    state = stack.wait_final([sizing_id], timeout_s=90)[sizing_id]
    assert state["status"] == "succeeded"
    assert state["has_result"]
    # One run killed, one run that finished: the copies found the record claimed or done.
    assert state["attempts"] == 2
    assert stack.audit([sizing_id])[sizing_id] == {"claim": 2, "outcome": 1}

    status, _, body = request(stack.api_port, "GET", f"/v1/sizings/{sizing_id}", key=stack.key)
    assert status == 200
    assert body["status"] == "succeeded" and body["result"]["configurations"]
