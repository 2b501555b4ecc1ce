"""Redis stopped while sizings are submitted, then restarted: every accepted sizing finishes."""

from __future__ import annotations

import time

from tests.faults.conftest import Load

PROBLEM_JSON = "application/problem+json"


def test_every_sizing_accepted_while_the_broker_is_down_finishes(stack, redis_server):
    stack.api()
    # Messages sent just before the stop die with Redis (it keeps nothing on disk), so the
    # workers resend a sent but unstarted record after 5 s instead of the production 120 s.
    stack.workers("a", "b", RESEND_UNSTARTED_AFTER_S="5")
    load = Load(stack, clients=4, per_client=60, pause_s=0.05).start()

    time.sleep(2)
    stopped_at = time.monotonic()
    redis_server.stop()
    time.sleep(4)
    restarted_at = time.monotonic()
    redis_server.start()
    time.sleep(2)
    load.stop()

    posts = [a for a in load.answers if a["method"] == "POST"]
    assert posts, "no sizing was submitted"
    unexpected = [a for a in posts if a["status"] not in (202, 503)]
    assert not unexpected, f"POST answered other than 202 or 503: {unexpected[:5]}"
    refused = [a for a in posts if a["status"] == 503]
    assert all(a["content_type"] == PROBLEM_JSON for a in refused), refused[:3]
    server_errors = [a for a in load.answers if a["status"] is None or a["status"] >= 500
                     and a["status"] != 503]
    assert not server_errors, server_errors[:5]

    # Records the API committed while Redis was down could not be sent at the time.
    during = [a for a in posts if a["status"] == 202
              and a["started"] >= stopped_at and a["ended"] <= restarted_at]
    assert during, "no sizing was accepted while the broker was down"

    ids = load.accepted_ids()
    assert len(ids) == len(set(ids))
    states = stack.wait_final(ids, timeout_s=90)
    assert {s["status"] for s in states.values()} == {"succeeded"}
    audit = stack.audit(ids)
    assert all(a["outcome"] == 1 for a in audit.values()), \
        {i: a for i, a in audit.items() if a["outcome"] != 1}
