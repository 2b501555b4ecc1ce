"""Schemathesis over every operation of openapi.yaml, against the WSGI app on a fresh database."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest
import schemathesis
from schemathesis.config import SchemathesisConfig

from service import accounts, db
from service.config import REPO_ROOT
from tests.conftest import NO_RATE_LIMITS, build_app
from tests.contract import fuzz_hooks  # noqa: F401  (registers the valid examples' VAT ids)

CONFIG = Path(__file__).with_name("schemathesis.toml")
# Requests sent per operation, so the run can show that none was left out.
SENT: Counter[str] = Counter()
STARTED: list[float] = []


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.sqlite3'}"
    # The limiter is tested elsewhere; here it would only turn generated requests into 429s.
    app = build_app(url, **NO_RATE_LIMITS)
    yield app
    with app.app_context():
        db.engine().dispose()


# A secret key with every scope, catalog:admin too. Its text is fixed, because schemathesis
# asks for the credentials while it collects the tests, before any app exists; the run's app
# stores it like any key (hashed).
FUZZ_KEY = "sk_test_f0220000fuzzing-key-of-the-contract-run0"


@pytest.fixture(scope="module")
def auth_headers(fuzz_app):
    with fuzz_app.app_context():
        session = db.session()
        account = accounts.create_account(session, "contract fuzzing")
        session.add(accounts.ApiKey(account_id=account.id, name="fuzz", prefix=FUZZ_KEY[:16],
                                    secret_hash=accounts.digest(FUZZ_KEY), kind="secret",
                                    mode="test", scopes=list(accounts.SCOPES)))
        session.commit()
    assert accounts.KEY_SHAPE.fullmatch(FUZZ_KEY)


schema = schemathesis.openapi.from_path(REPO_ROOT / "openapi.yaml",
                                        config=SchemathesisConfig.from_path(CONFIG))


@schema.auth()
class FuzzKey:
    """The key, in both of the spec's security schemes, as schemathesis's own auth: its checks
    then know the credentials and can take them away to see the API refuse (a generated
    X-API-Key beside the Bearer would be a second, different key, which the API refuses)."""

    def get(self, case, context):
        return FUZZ_KEY

    def set(self, case, data, context):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}",
                        "X-API-Key": data}


@schema.parametrize()
def test_operation_honours_its_contract(case, fuzz_app, auth_headers):
    # The app is built per run on a fresh database, so it joins the schema here, not at import:
    # every request, including the checks' own probes, then goes to it in-process.
    case.operation.schema.app = case.operation.app = fuzz_app
    STARTED[:] = STARTED or [time.monotonic()]
    SENT[case.operation.label] += 1
    case.call_and_validate()


def test_every_operation_was_exercised(capsys):
    operations = [op.ok().label for op in schema.get_all_operations()]
    missing = [label for label in operations if not SENT[label]]
    assert not missing, f"never exercised: {missing}"
    with capsys.disabled():
        print(f"\nfuzzed {len(operations)} operations with {sum(SENT.values())} generated requests "
              f"(fewest: {min(SENT.values())}, {min(SENT, key=SENT.get)}) "
              f"in {time.monotonic() - STARTED[0]:.0f} s")


def test_stateful_workflows_honour_the_contract(fuzz_app, auth_headers, capsys):
    """Sequences of calls, each using what an earlier one returned (a sizing's id, a quote's id
    and ETag), as the links inferred from the spec lead."""
    import hypothesis

    schema.app = fuzz_app
    steps: Counter[str] = Counter()

    class Workflow(schema.as_state_machine()):
        def after_call(self, response, case):
            super().after_call(response, case)
            steps[f"{case.operation.label} {response.status_code}"] += 1

    Workflow.run(settings=hypothesis.settings(
        max_examples=40, stateful_step_count=6, deadline=None, database=None, derandomize=True,
        suppress_health_check=list(hypothesis.HealthCheck)))
    chained = [label for label in steps if "{" in label.split(" ")[1] and not label.endswith("404")]
    assert chained, f"no step used an id another step returned: {dict(steps)}"
    with capsys.disabled():
        print(f"\nstateful: {sum(steps.values())} calls; {len(chained)} kinds reached a real "
              f"object: {sorted(chained)}")
