"""Keys, scopes, isolation and rate limits, as a partner would meet them."""

from __future__ import annotations

import pytest

from service import accounts, db
from tests.conftest import authorised, build_app, new_key

SIZING = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10, "nodes": {"min": 1, "max": 2},
          "gpu_models": ["h100-sxm"]}


def test_no_key_is_401_problem(catalog_app):
    response = catalog_app.test_client().get("/v1/catalog/gpus")
    assert response.status_code == 401
    assert response.mimetype == "application/problem+json"
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_unknown_and_revoked_keys_are_401(catalog_app):
    assert authorised(catalog_app, "sk_live_deadbeefnotakey").get("/v1/catalog/gpus").status_code == 401
    key = new_key(catalog_app)
    client = authorised(catalog_app, key)
    assert client.get("/v1/catalog/gpus").status_code == 200
    with catalog_app.app_context():
        assert accounts.revoke(db.session(), key[:16])
    response = client.get("/v1/catalog/gpus")
    assert response.status_code == 401 and response.get_json()["code"] == "invalid_key"


def test_x_api_key_header_works_too(catalog_app):
    client = catalog_app.test_client()
    response = client.get("/v1/catalog/gpus", headers={"X-API-Key": catalog_app.config["TEST_KEY"]})
    assert response.status_code == 200


def test_too_few_scopes_is_403(catalog_app):
    key = new_key(catalog_app, scopes=("catalog:read",))
    response = authorised(catalog_app, key).post("/v1/sizings", json=SIZING)
    assert response.status_code == 403
    assert response.get_json()["code"] == "insufficient_scope"


def test_publishable_key_cannot_hold_secret_scopes(catalog_app):
    with pytest.raises(ValueError):
        new_key(catalog_app, kind="publishable", scopes=("quotes:write",))


def test_another_accounts_sizing_is_404(catalog_app):
    mine = authorised(catalog_app, new_key(catalog_app))
    theirs = authorised(catalog_app, new_key(catalog_app))
    created = mine.post("/v1/sizings", json=SIZING)
    assert created.status_code == 202
    location = created.headers["Location"]
    assert mine.get(location).status_code == 200
    response = theirs.get(location)
    assert response.status_code == 404
    assert "result" not in response.get_json()
    assert theirs.post(location + "/cancel").status_code == 404
    listed = theirs.get("/v1/sizings").get_json()["items"]
    assert created.get_json()["id"] not in [s["id"] for s in listed]


def test_publishable_key_sees_only_what_it_created(catalog_app):
    secret = new_key(catalog_app)
    with catalog_app.app_context():
        from service.records import ApiKey
        account_id = db.session().query(ApiKey).filter_by(prefix=secret[:16]).one().account_id
    public = authorised(catalog_app, new_key(catalog_app, kind="publishable", account_id=account_id))
    other_visitor = authorised(catalog_app, new_key(catalog_app, kind="publishable",
                                                    account_id=account_id))
    created = public.post("/v1/sizings", json=SIZING)
    location, secret_header = created.headers["Location"], {
        "Client-Secret": created.get_json()["client_secret"]}
    assert public.get(location, headers=secret_header).status_code == 200
    # Even with the secret, another key of the account did not create it.
    assert other_visitor.get(location, headers=secret_header).status_code == 404
    assert authorised(catalog_app, secret).get(location).status_code == 200


def test_rate_limit_holds_for_one_key_and_spares_another(tmp_path):
    app = build_app(f"sqlite:///{tmp_path / 'rl.sqlite3'}", rate_limit_per_minute=5)
    hot, calm = authorised(app, new_key(app)), authorised(app, new_key(app))
    statuses = [hot.get("/v1/catalog/fabrics").status_code for _ in range(8)]
    assert statuses[:5] == [200] * 5 and statuses[5:] == [429] * 3
    limited = hot.get("/v1/catalog/fabrics")
    assert int(limited.headers["Retry-After"]) >= 1
    assert "q=5" in limited.headers["RateLimit-Policy"]
    ok = calm.get("/v1/catalog/fabrics")
    assert ok.status_code == 200 and 'r=4' in ok.headers["RateLimit"]


def test_rate_limit_is_shared_through_the_real_redis(tmp_path):
    """Two API processes share one limit per key: the count lives in Redis, not in a process."""
    import redis

    from tests.settings import REDIS_HOST, REDIS_PORT

    url = f"redis://{REDIS_HOST}:{REDIS_PORT}/14"
    redis.Redis.from_url(url).flushdb()
    database = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    first = build_app(database, rate_limit_per_minute=6, redis_url=url, tasks_eager=True)
    key = new_key(first)
    second = build_app(database, load_catalog=False, rate_limit_per_minute=6, redis_url=url,
                       tasks_eager=True)
    statuses = [authorised(app, key).get("/v1/catalog/fabrics").status_code
                for app in (first, second) * 5]
    assert statuses.count(200) == 6 and statuses.count(429) == 4
    assert statuses[-1] == 429
    other = authorised(second, new_key(second)).get("/v1/catalog/fabrics")
    assert other.status_code == 200


def keys_of_one_account(app, count: int, kind: str = "secret") -> list[str]:
    with app.app_context():
        session = db.session()
        account_id = accounts.create_account(session, "many keys").id
        return [accounts.create_key(session, account_id, kind=kind)[1] for _ in range(count)]


def test_more_keys_of_one_account_do_not_buy_more_requests(tmp_path):
    app = build_app(f"sqlite:///{tmp_path / 'acct.sqlite3'}", rate_limit_per_minute=5,
                    account_rate_limit_per_minute=6)
    first, second = (authorised(app, k) for k in keys_of_one_account(app, 2))
    statuses = [c.get("/v1/catalog/fabrics").status_code for c in (first, second) * 4]
    assert statuses.count(200) == 6 and statuses.count(429) == 2
    refused = second.get("/v1/catalog/fabrics")
    assert refused.status_code == 429 and "account" in refused.get_json()["detail"]
    assert '"account";q=6' in refused.headers["RateLimit-Policy"]
    # Another account is untouched.
    assert authorised(app, new_key(app)).get("/v1/catalog/fabrics").status_code == 200


def test_one_visitor_cannot_spend_the_page_s_allowance(tmp_path):
    app = build_app(f"sqlite:///{tmp_path / 'visitor.sqlite3'}",
                    publishable_rate_limit_per_address=3)
    (page_key,) = keys_of_one_account(app, 1, kind="publishable")
    greedy, polite = authorised(app, page_key), authorised(app, page_key)
    greedy.environ_base["REMOTE_ADDR"] = "203.0.113.7"
    polite.environ_base["REMOTE_ADDR"] = "198.51.100.9"
    assert [greedy.get("/v1/presets").status_code for _ in range(4)] == [200, 200, 200, 429]
    assert polite.get("/v1/presets").status_code == 200


def test_guessing_keys_is_limited_per_address_before_any_lookup(tmp_path):
    from sqlalchemy import event

    app = build_app(f"sqlite:///{tmp_path / 'guess.sqlite3'}", auth_failures_per_address=3)
    good = app.config["TEST_KEY"]
    lookups = []
    with app.app_context():
        event.listen(db.engine(), "before_cursor_execute",
                     lambda conn, cursor, statement, *a: lookups.append(statement)
                     if "api_keys" in statement else None)
    guesser = authorised(app, "sk_live_0123abcd" + "x" * 32)
    guesser.environ_base["REMOTE_ADDR"] = "203.0.113.50"
    assert [guesser.get("/v1/presets").status_code for _ in range(3)] == [401] * 3
    assert len(lookups) == 3
    blocked = guesser.get("/v1/presets")
    assert blocked.status_code == 429 and blocked.get_json()["code"] == "too_many_failed_authentications"
    assert int(blocked.headers["Retry-After"]) >= 1
    assert len(lookups) == 3, "a blocked address still cost a lookup"
    # The address waits out the window even with a good key; other addresses are served.
    same_address = authorised(app, good)
    same_address.environ_base["REMOTE_ADDR"] = "203.0.113.50"
    assert same_address.get("/v1/presets").status_code == 429
    assert authorised(app, good).get("/v1/presets").status_code == 200


def test_a_known_key_costs_one_redis_round_trip_and_still_waits_out_its_address(tmp_path,
                                                                                  monkeypatch):
    """A key this process remembers is not looked up, so its address's failed authentications
    are read with the rate limits, in their one round trip; a blocked address still waits."""
    import redis

    from tests.settings import REDIS_HOST, REDIS_PORT

    url = f"redis://{REDIS_HOST}:{REDIS_PORT}/14"
    redis.Redis.from_url(url).flushdb()
    app = build_app(f"sqlite:///{tmp_path / 'known.sqlite3'}", auth_failures_per_address=3,
                    redis_url=url, tasks_eager=True)
    known = authorised(app)
    known.environ_base["REMOTE_ADDR"] = "203.0.113.60"
    assert known.get("/v1/presets").status_code == 200
    sent = []
    original = redis.connection.AbstractConnection.send_packed_command
    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command",
                        lambda self, *a, **k: sent.append(1) or original(self, *a, **k))
    assert known.get("/v1/presets").status_code == 200
    assert len(sent) == 1
    guesser = authorised(app, "sk_live_0123abcd" + "x" * 32)
    guesser.environ_base["REMOTE_ADDR"] = "203.0.113.60"
    assert [guesser.get("/v1/presets").status_code for _ in range(3)] == [401] * 3
    blocked = known.get("/v1/presets")
    assert blocked.status_code == 429 and blocked.get_json()["code"] == "too_many_failed_authentications"
    assert authorised(app).get("/v1/presets").status_code == 200


def test_a_malformed_key_is_refused_without_a_lookup(catalog_app):
    from sqlalchemy import event

    lookups = []

    def count(conn, cursor, statement, *args):
        if "api_keys" in statement:
            lookups.append(statement)

    with catalog_app.app_context():
        engine = db.engine()
    event.listen(engine, "before_cursor_execute", count)
    try:
        for bad in ("nope", "sk_live_" + "z" * 40, "pk_live_abc' OR 1=1 --", "sk_live_" + "a" * 500):
            response = authorised(catalog_app, bad).get("/v1/presets")
            assert response.status_code == 401 and response.get_json()["code"] == "invalid_key"
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert lookups == []


def test_the_client_address_comes_from_the_proxy_only_when_one_is_trusted(tmp_path):
    def limited_after_three(trusted: int) -> list[int]:
        app = build_app(f"sqlite:///{tmp_path / f'proxy{trusted}.sqlite3'}",
                        auth_failures_per_address=3, trusted_proxies=trusted)
        statuses = []
        for i in range(5):
            client = authorised(app, "sk_live_0123abcd" + "x" * 32)
            client.environ_base["HTTP_X_FORWARDED_FOR"] = f"192.0.2.{i}"
            statuses.append(client.get("/v1/presets").status_code)
        return statuses

    # Behind a trusted proxy each forwarded client has its own count; without one, a forged
    # X-Forwarded-For changes nothing.
    assert limited_after_three(1) == [401] * 5
    assert limited_after_three(0) == [401, 401, 401, 429, 429]


def test_two_different_keys_are_refused(catalog_app):
    key = catalog_app.config["TEST_KEY"]
    for other in ("sk_live_0123abcd" + "x" * 32, new_key(catalog_app), ""):
        response = authorised(catalog_app, key).get("/v1/presets", headers={"X-API-Key": other})
        assert response.status_code == 401
        assert response.get_json()["code"] == "ambiguous_credentials"
    same = authorised(catalog_app, key).get("/v1/presets", headers={"X-API-Key": key})
    assert same.status_code == 200


def test_an_authorization_header_of_another_scheme_is_no_key(catalog_app):
    response = catalog_app.test_client().get("/v1/presets", headers={
        "Authorization": "Basic " + catalog_app.config["TEST_KEY"]})
    assert response.status_code == 401 and response.get_json()["code"] == "unauthenticated"


@pytest.mark.parametrize("store", ["memory", "redis"])
def test_a_blocked_address_spends_none_of_a_remembered_keys_allowance(tmp_path, monkeypatch,
                                                                       store):
    """A key this process remembers has its address's failures checked with the rate limits,
    in one round trip: a request refused there must count against none of its limits, so the
    same key from another address keeps its allowance (as when the key is looked up)."""
    import redis

    from service import ratelimit
    from tests.settings import REDIS_HOST, REDIS_PORT

    url = None
    if store == "redis":
        url = f"redis://{REDIS_HOST}:{REDIS_PORT}/14"
        redis.Redis.from_url(url).flushdb()
    # One window throughout: a minute rolling over mid-test would reset every count.
    monkeypatch.setattr(ratelimit, "window_now", lambda: (123456789, 30))
    app = build_app(f"sqlite:///{tmp_path / 'gate.sqlite3'}", redis_url=url, tasks_eager=True,
                    auth_failures_per_address=2, rate_limit_per_minute=5,
                    account_rate_limit_per_minute=5)

    def at(address: str, key: str | None = None):
        client = authorised(app, key)
        client.environ_base["REMOTE_ADDR"] = address
        return client

    known = at("198.51.100.1")
    assert known.get("/v1/presets").status_code == 200  # remembered from now on
    guesser = at("198.51.100.1", "sk_live_0123abcd" + "x" * 32)
    assert [guesser.get("/v1/presets").status_code for _ in range(2)] == [401] * 2
    refused = [known.get("/v1/presets") for _ in range(6)]
    assert {(r.status_code, r.get_json()["code"]) for r in refused} == {
        (429, "too_many_failed_authentications")}
    elsewhere = at("192.0.2.9").get("/v1/presets")
    assert elsewhere.status_code == 200, elsewhere.get_json()
    # The first request and this one: 3 of 5 left, on the key and on the account.
    assert elsewhere.headers["RateLimit"] == '"key";r=3;t=30, "account";r=3;t=30'
