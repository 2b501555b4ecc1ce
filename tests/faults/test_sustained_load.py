"""Many concurrent clients for a bounded time: no 5xx, no sizing lost, none run twice."""

from __future__ import annotations

from tests.faults.conftest import Load

CLIENTS = 24
PER_CLIENT = 15


def test_concurrent_clients_get_no_5xx_and_every_sizing_runs_once(stack):
    stack.api()
    # A short resend age makes the dispatchers send a second copy of most records still
    # waiting in the backlog, so every record is offered to the workers more than once.
    stack.workers("a", "b", RESEND_UNSTARTED_AFTER_S="2")
    load = Load(stack, clients=CLIENTS, per_client=PER_CLIENT, pause_s=0.0).start()
    load.join(timeout_s=150)

    answers = load.answers
    assert not [a for a in answers if a["status"] is None], "a request got no HTTP answer"
    server_errors = [a for a in answers if a["status"] >= 500]
    assert not server_errors, server_errors[:5]
    posts = [a for a in answers if a["method"] == "POST"]
    assert len(posts) == CLIENTS * PER_CLIENT
    assert {a["status"] for a in posts} == {202}

    ids = load.accepted_ids()
    assert len(set(ids)) == len(ids) == CLIENTS * PER_CLIENT
    states = stack.wait_final(ids, timeout_s=120)
    assert {s["status"] for s in states.values()} == {"succeeded"}
    # Exactly the accepted sizings exist: nothing lost, nothing created twice.
    assert stack.rows("SELECT count(*) AS n FROM sizings")[0]["n"] == len(ids)
    # Each ran once: one claim and one outcome, however many copies of its message arrived.
    audit = stack.audit(ids)
    twice = {i: a for i, a in audit.items() if a != {"claim": 1, "outcome": 1}}
    assert not twice, f"{len(twice)} sizings ran or finished more than once: {list(twice.items())[:3]}"
    assert {s["attempts"] for s in states.values()} == {1}
    resent = stack.rows("SELECT count(*) AS n FROM sizings WHERE dispatched_at > created_at "
                        "+ interval '2 seconds'")[0]["n"]
    print(f"{len(ids)} sizings, {resent} of them sent again while waiting")
