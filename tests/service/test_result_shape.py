"""One place defines a result's shape: the dataclasses; the schema and the stored JSON follow."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from service.quote_document import QuoteDocument
from service.sizing_result import SizingResult
from service.typed import (
    _optional,
    from_document,
    schema_for,
    significant,
    to_document,
)
from sizing.explain import significant_text
from tests.conftest import authorised, build_app


def dataclasses_in(cls, seen=None) -> set:
    seen = set() if seen is None else seen
    if cls in seen:
        return seen
    seen.add(cls)
    for hint in typing.get_type_hints(cls).values():
        inner, _ = _optional(hint)
        for arg in (inner, *typing.get_args(inner)):
            if dataclasses.is_dataclass(arg):
                dataclasses_in(arg, seen)
    return seen


@pytest.mark.parametrize("root", [SizingResult, QuoteDocument])
def test_every_schema_has_exactly_its_dataclass_fields(root):
    for cls in dataclasses_in(root):
        schema = schema_for(cls)()
        assert set(schema.fields) == {f.name for f in dataclasses.fields(cls)}, cls.__name__
        hints = typing.get_type_hints(cls)
        for name, field in schema.fields.items():
            assert field.required, f"{cls.__name__}.{name}"
            assert field.allow_none == _optional(hints[name])[1], f"{cls.__name__}.{name}"


def test_the_spec_documents_every_field_of_a_ranked_configuration(catalog_app):
    with catalog_app.app_context():
        spec = catalog_app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    schemas = spec["components"]["schemas"]
    for cls in dataclasses_in(SizingResult):
        documented = schemas[cls.__name__]
        assert set(documented["properties"]) == {f.name for f in dataclasses.fields(cls)}
        assert set(documented["required"]) == set(documented["properties"])


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    from service import db
    from service.records import Sizing

    app = build_app(f"sqlite:///{tmp_path_factory.mktemp('shape') / 'shape.sqlite3'}")
    body = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10, "nodes": {"min": 1, "max": 2},
            "gpu_models": ["h100-sxm"]}
    created = authorised(app).post("/v1/sizings", json=body, headers={"Prefer": "wait=30"})
    with app.app_context():
        return db.session().get(Sizing, created.get_json()["id"]).result


def test_the_stored_document_reads_back_as_the_typed_result(stored):
    result = from_document(SizingResult, stored)
    assert isinstance(result, SizingResult) and result.configurations
    assert to_document(result) == stored
    assert schema_for(SizingResult)().dump(stored) == stored


def test_figures_are_rounded_to_what_the_model_justifies(stored):
    top = stored["configurations"][0]
    for value in (top["step_time_s"], top["scaling_efficiency"], top["tokens_per_s"],
                  top["memory"]["total_gb"], top["breakdown"]["compute_s"]):
        assert value == significant(value)
    assert len(top["price"]["total"].split(".")[1]) == 2  # money to the currency's minor unit
    assert stored["workload"]["tokens"] == 1e10  # what the customer gave stays as given


def test_decimals_are_stored_as_plain_decimal_strings():
    from decimal import Decimal

    assert to_document(Decimal(32760).normalize()) == "32760"  # not 3.276E+4
    assert to_document(Decimal("0.10")) == "0.10"


def test_a_small_figure_in_words_keeps_its_significant_digits():
    """A job that needs 0.046 GB/s of storage is not told it needs 0.0 GB/s."""
    assert [significant_text(x) for x in (0.0461234, 12.345, 1234.5, 0.0)] == \
        ["0.0461", "12.3", "1,230", "0"]
