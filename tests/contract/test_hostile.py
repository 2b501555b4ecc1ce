"""The hostile corpus (tests/contract/hostile.py) against a live server: only 4xx problems."""

from __future__ import annotations

import re
import shlex
from collections import Counter

import pytest

from service import accounts, db
from tests.conftest import REPO_ROOT, build_app
from tests.contract.hostile import corpus, limited, problems_with, send
from tests.faults.servers import LOAD_TEST_ENV, ApiServer, request, service_env


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """gunicorn as `make run` serves it, with an account's two kinds of key, and a sizing and a
    quote of another account for the corpus to reach for."""
    workdir = tmp_path_factory.mktemp("hostile")
    database_url = f"sqlite:///{workdir / 'hostile.sqlite3'}"
    app = build_app(database_url)
    with app.app_context():
        session = db.session()
        account = accounts.create_account(session, "attacker's view")
        # The secret key with every scope, catalog:admin too, so every operation is reached.
        keys = {"secret": accounts.create_key(session, account.id, scopes=accounts.SCOPES)[1],
                "publishable": accounts.create_key(session, account.id, kind="publishable")[1]}
        db.engine().dispose()
    # The rate limits raised, so every answer is the one to the request, not a 429.
    server = ApiServer(workdir, service_env(database_url, None, BODY_READ_TIMEOUT_S="2",
                                            **LOAD_TEST_ENV), workers=1, threads=4).start()
    other = app.config["TEST_KEY"]
    sizing = request(server.port, "POST", "/v1/sizings", {
        "workload": {"preset": "llama-3-8b"}, "tokens": 1e10, "nodes": {"min": 1, "max": 2},
        "gpu_models": ["h100-sxm"]}, key=other)[2]
    quote = request(server.port, "POST", "/v1/quotes", {
        "sizing_id": sizing["id"], "customer": {"name": "Victim", "email": "v@example.com"}},
        key=other)[2]
    yield server, keys, {"sizing": sizing["id"], "quote": quote["id"]}
    server.stop()


@pytest.mark.parametrize("kind", ["secret", "publishable"])
def test_every_hostile_request_is_a_4xx_problem(live, kind, capsys):
    server, keys, real_ids = live
    requests = corpus(real_ids)
    assert len(requests) > 250
    answers = [send(f"http://127.0.0.1:{server.port}", keys[kind], r) for r in requests]
    wrong = [(a.request.name, problems_with(a), a.body[:200]) for a in answers
             if problems_with(a) is not None]
    assert not wrong, wrong[:10]
    # A limit's 429 would stand in for the answer to the request: none may.
    assert not [a.request.name for a in answers if limited(a)]
    # Nothing of the other account leaked into any answer.
    assert not [a.request.name for a in answers if b"Victim" in a.body or b"v@example.com" in a.body]
    with capsys.disabled():
        statuses = Counter(a.status for a in answers)
        print(f"\n{len(requests)} hostile requests with the {kind} key: {dict(sorted(statuses.items()))}, "
              f"slowest {max(a.seconds for a in answers):.1f} s")


def test_the_server_still_serves_after_the_corpus(live):
    server, keys, _ = live
    assert request(server.port, "GET", "/healthz")[0] == 200
    assert request(server.port, "GET", "/v1/presets", key=keys["publishable"])[0] == 200


def test_the_readme_starts_the_server_with_every_limit_the_replay_meets_raised():
    # The README's `make run` line for the fuzzer and the corpus, with its line continuations.
    readme = (REPO_ROOT / "README.md").read_text().replace("\\\n", " ")
    (line,) = [line for line in readme.splitlines() if re.search(r"\bmake run PORT=\d+ &", line)]
    given = dict(word.split("=", 1) for word in shlex.split(line.split("make run")[0]))
    # Both keys' requests fall within one minute, so each limit must exceed them all.
    requests = 2 * len(corpus())
    assert [name for name in LOAD_TEST_ENV if int(given.get(name, 0)) < requests] == []
