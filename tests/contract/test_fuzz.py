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
from tests.conftest import NO_RATE_LIMITS, build_app, new_key

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


@pytest.fixture(scope="module")
def auth_headers(fuzz_app):
    return {"Authorization": f"Bearer {new_key(fuzz_app, scopes=accounts.SCOPES)}"}


schema = schemathesis.openapi.from_path(REPO_ROOT / "openapi.yaml",
                                        config=SchemathesisConfig.from_path(CONFIG))


@schema.parametrize()
def test_operation_honours_its_contract(case, fuzz_app, auth_headers):
    # The app is built per run on a fresh database, so it joins the schema here, not at import:
    # every request, including the checks' own probes, then goes to it in-process.
    case.operation.schema.app = case.operation.app = fuzz_app
    STARTED[:] = STARTED or [time.monotonic()]
    SENT[case.operation.label] += 1
    case.call_and_validate(headers=auth_headers)


def test_every_operation_was_exercised(capsys):
    operations = [op.ok().label for op in schema.get_all_operations()]
    missing = [label for label in operations if not SENT[label]]
    assert not missing, f"never exercised: {missing}"
    with capsys.disabled():
        print(f"\nfuzzed {len(operations)} operations with {sum(SENT.values())} generated requests "
              f"(fewest: {min(SENT.values())}, {min(SENT, key=SENT.get)}) "
              f"in {time.monotonic() - STARTED[0]:.0f} s")
