"""Schemathesis hooks of the contract run (tests/contract/test_fuzz.py, and a command-line run
with SCHEMATHESIS_HOOKS=tests.contract.fuzz_hooks).

An EU business's VAT id carries its member state's prefix (Directive 2006/112/EC Art. 215,
Greece's EL): a rule across two fields whose prefixes are catalog data (taxes.yaml), not the
spec's. A valid example is therefore made to follow it, so that a 422 on valid data is still a
failure; an invalid example is left as drawn.
"""

from __future__ import annotations

from typing import Any

import schemathesis
import yaml

from service.config import REPO_ROOT

TAXES = yaml.safe_load((REPO_ROOT / "catalog" / "data" / "taxes.yaml").read_text())
EU_COUNTRIES = frozenset(TAXES["reverse_charge_countries"])
VAT_ID_PREFIXES: dict[str, str] = TAXES.get("vat_id_prefixes") or {}


def with_its_prefix(customer: Any) -> None:
    """An EU customer's VAT id given its country's prefix in place of its first two characters
    (the spec's pattern admits any two capitals there, so the id stays valid and as long)."""
    if not isinstance(customer, dict):
        return
    country, vat_id = customer.get("country"), customer.get("vat_id")
    if country not in EU_COUNTRIES or not isinstance(vat_id, str):
        return
    prefix = VAT_ID_PREFIXES.get(country, country)
    if not vat_id.startswith(prefix):
        customer["vat_id"] = prefix + vat_id[len(prefix):]


@schemathesis.hook.apply_to(operation_id_regex="^(createQuote|updateQuote)$")
def map_case(context, case):
    meta = case.meta
    if (meta is None or not meta.generation.mode.is_negative) and isinstance(case.body, dict):
        with_its_prefix(case.body.get("customer"))
    return case
