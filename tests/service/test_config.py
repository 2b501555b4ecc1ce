"""Settings come from the environment through parsers that refuse junk, naming the variable."""

from __future__ import annotations

import pytest

from service.config import WHOLE_NUMBERS, Config, ConfigError

# The limits a smaller one is checked against, set high (and the one checked against the
# secret key's allowance low), so each can be read on its own.
CEILINGS = {"SEARCH_CANDIDATES_SECRET_KEY": "99999999", "ACTIVE_SIZINGS_PER_ACCOUNT": "99999999",
            "ACCOUNT_RATE_LIMIT_PER_MINUTE": "99999999", "SEARCH_CANDIDATES_PUBLISHABLE_KEY": "1000"}


@pytest.mark.parametrize("field, variable", [(f, v) for f, (v, _) in WHOLE_NUMBERS.items()])
def test_every_limit_is_read_from_its_variable(field, variable):
    assert getattr(Config.from_env({**CEILINGS, variable: " 1234567 "}), field) == 1234567


@pytest.mark.parametrize("variable", [v for v, _ in WHOLE_NUMBERS.values()])
@pytest.mark.parametrize("junk", ["ten", "1_000", "+5", "-5", "1e3", "\u0663", "5.0", "0x10"])
def test_junk_in_a_limit_stops_the_process_naming_the_variable(variable, junk):
    with pytest.raises(ConfigError, match=variable):
        Config.from_env({variable: junk})


@pytest.mark.parametrize("env, message", [
    ({"SEARCH_CANDIDATES_PUBLISHABLE_KEY": "30000000"}, "SEARCH_CANDIDATES_PUBLISHABLE_KEY"),
    ({"ACTIVE_SIZINGS_FROM_PUBLISHABLE_KEYS": "11"}, "ACTIVE_SIZINGS_FROM_PUBLISHABLE_KEYS"),
    ({"RATE_LIMIT_PER_MINUTE": "5000"}, "ACCOUNT_RATE_LIMIT_PER_MINUTE"),
    ({"IDEMPOTENCY_KEY_TTL_S": "10"}, "at least 60"),
])
def test_a_public_key_is_never_allowed_more_than_a_secret_one(env, message):
    with pytest.raises(ConfigError, match=message):
        Config.from_env(env)


def test_the_defaults_are_the_documented_ones():
    config = Config.from_env({})
    assert (config.search_candidates_secret_key, config.search_candidates_publishable_key) == \
        (6_000_000, 1_500_000)
    assert (config.active_sizings_per_account, config.active_sizings_from_publishable_keys) == (10, 4)
    assert (config.rate_limit_per_minute, config.account_rate_limit_per_minute,
            config.publishable_rate_limit_per_address, config.auth_failures_per_address) == \
        (600, 1200, 120, 20)
    assert (config.max_wait_s, config.wait_slots, config.idempotency_key_ttl_s) == (20, 2, 86_400)
    assert config.trusted_proxies == 0 and config.body_read_timeout_s == 10


def test_the_readme_states_the_limits_as_they_are():
    from service.config import REPO_ROOT
    from service.limits_doc import markdown

    assert markdown(Config()) in (REPO_ROOT / "README.md").read_text()
