"""A worker killed with SIGKILL in the middle of a sizing: the sizing still finishes, once."""

from __future__ import annotations

import time

from tests.faults.conftest import LARGE_SIZING, LARGE_SIZING_ALLOWANCE
from tests.faults.servers import request, wait_until

LEASE_S = 6


def start_large_sizing_and_kill_its_worker(stack) -> str:
    """Submit a few seconds' work, SIGKILL the only worker in the middle of it; the record id."""
    (first,) = stack.workers("a", SIZING_LEASE_S=str(LEASE_S))
    status, _, body = stack.post_sizing(LARGE_SIZING)
    assert status == 202
    sizing_id = body["id"]
    wait_until(lambda: stack.states([sizing_id])[sizing_id]["status"] == "running", 60,
               "the first worker to start the sizing")
    time.sleep(0.5)
    first.kill()
    state = stack.states([sizing_id])[sizing_id]
    assert (state["status"], state["attempts"]) == ("running", 1), "killed too late: " + str(state)
    return sizing_id


def assert_finished_once(stack, sizing_id: str) -> None:
    state = stack.states([sizing_id])[sizing_id]
    assert state["status"] == "succeeded" and state["has_result"]
    # One run killed, one run that finished: every other copy found the record claimed or done.
    assert state["attempts"] == 2
    assert stack.audit([sizing_id])[sizing_id] == {"claim": 2, "outcome": 1}
    status, _, body = request(stack.api_port, "GET", f"/v1/sizings/{sizing_id}", key=stack.key)
    assert status == 200
    assert body["status"] == "succeeded" and body["result"]["configurations"]


def test_copies_racing_for_a_killed_runs_sizing_run_it_once(stack):
    stack.api(**LARGE_SIZING_ALLOWANCE)
    sizing_id = start_large_sizing_and_kill_its_worker(stack)
    # The worker that takes over runs two tasks at once; its own dispatcher stays idle so that
    # only the copies below, sent once the dead run's lease has run out, race for the record
    # (as a redelivery and the dispatchers of several workers do).
    stack.workers("b", concurrency=2, SIZING_LEASE_S=str(LEASE_S), DISPATCH_INTERVAL_S="3600")
    wait_until(lambda: stack.rows(
        "SELECT now() - updated_at > make_interval(secs => :lease) AS stale FROM sizings "
        "WHERE id = :id", lease=LEASE_S, id=sizing_id)[0]["stale"], 60, "the lease to run out")
    for _ in range(4):
        stack.send_run_message(sizing_id)
    stack.wait_final([sizing_id], timeout_s=90)
    assert_finished_once(stack, sizing_id)


def test_dispatcher_alone_recovers_the_sizing_of_a_killed_worker(stack):
    stack.api(**LARGE_SIZING_ALLOWANCE)
    sizing_id = start_large_sizing_and_kill_its_worker(stack)
    stack.workers("b", SIZING_LEASE_S=str(LEASE_S))
    # Lease, one dispatcher pass and a few seconds' run are enough; allow a few leases more.
    stack.wait_final([sizing_id], timeout_s=5 * LEASE_S)
    assert_finished_once(stack, sizing_id)
