"""The contract run's valid examples follow the VAT id rule the spec cannot state."""

from __future__ import annotations

import pytest

from tests.contract.fuzz_hooks import EU_COUNTRIES, with_its_prefix
from tests.service.test_quotes import EXPLICIT


@pytest.mark.parametrize("country", sorted(EU_COUNTRIES))
def test_a_valid_example_s_eu_vat_id_is_accepted(client, country):
    customer = {"name": "Ada", "country": country, "vat_id": "QQ0123456789"}
    with_its_prefix(customer)
    created = client.post("/v1/quotes", json={**EXPLICIT, "customer": customer})
    assert created.status_code == 201, created.get_json()
    assert len(customer["vat_id"]) == len("QQ0123456789")


def test_an_id_outside_the_eu_is_left_as_drawn():
    customer = {"name": "Ada", "country": "JP", "vat_id": "T1234567890123"}
    with_its_prefix(customer)
    assert customer["vat_id"] == "T1234567890123"
