"""Typed results to stored JSON and back, and their marshmallow schema, all from the dataclasses.

A result's dataclass is the one definition of its shape: the document a record stores, the
schema the API documents and dumps through, and the typed value read back are all derived here.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from datetime import date
from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal
from functools import cache
from typing import Any, Literal, Union

import marshmallow as ma

# Figures from the model are rounded to what it can justify when they leave the house.
SIGNIFICANT_DIGITS = 4
DECIMAL_PATTERN = r"^-?[0-9]+(\.[0-9]+)?$"


def significant(value: float, digits: int = SIGNIFICANT_DIGITS) -> float:
    if value == 0 or not math.isfinite(value):
        return value
    return float(f"{value:.{digits}g}")


def significant_bounds(low: float | Decimal, high: float | Decimal,
                       digits: int = SIGNIFICANT_DIGITS) -> tuple[float, float]:
    """`low` rounded down and `high` up to `digits` significant digits: a range rounded to the
    nearest would leave out a point it held (a p10 of 7836.86 shown as 7837)."""
    def toward(value: float | Decimal, rounding: str) -> float:
        if value == 0 or not math.isfinite(value):
            return float(value)
        # From the shortest repr: a float's binary tail would move 12.34 down to 12.33.
        return float(Context(prec=digits, rounding=rounding).plus(Decimal(str(value))))
    return toward(low, ROUND_FLOOR), toward(high, ROUND_CEILING)


def _hints(cls) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _optional(tp) -> tuple[Any, bool]:
    """(the type inside, whether None is allowed)."""
    if typing.get_origin(tp) in (Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(tp)) == 2:
            return args[0], True
    return tp, False


# Each dataclass's fields as to_document reads them, once per class: (name, its own digits,
# or _INHERITED for the caller's), rather than dataclasses.fields and each field's metadata
# for every value (a full-catalog result is some 3,000 dataclass values).
_FIELD_PLANS: dict[type, tuple[tuple[str, Any], ...]] = {}
_INHERITED = object()


def to_document(value: Any, digits: int = SIGNIFICANT_DIGITS) -> Any:
    """JSON-ready: Decimal as a decimal string, a date in ISO 8601, floats to `digits`."""
    # The kinds a document is mostly made of, by their exact type first: each is what the
    # checks below make of it, without the half dozen checks before its own (a result is
    # some ninety values: floats in dicts, words in lists).
    kind = type(value)
    if kind is float:
        return significant(value, digits) if digits else value
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is dict:
        return {str(k): to_document(v, digits) for k, v in value.items()}
    if kind is list:
        return [to_document(v, digits) for v in value]
    plan = _FIELD_PLANS.get(kind)
    if plan is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        plan = _FIELD_PLANS[kind] = tuple(
            (f.name, f.metadata.get("digits", _INHERITED))
            for f in dataclasses.fields(value))
    if plan is not None:
        return {name: to_document(getattr(value, name), digits if own is _INHERITED else own)
                for name, own in plan}
    if isinstance(value, Decimal):
        return format(value, "f")  # 32760, never 3.276E+4
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return significant(value, digits) if digits else value
    if isinstance(value, (list, tuple)):
        return [to_document(v, digits) for v in value]
    if isinstance(value, dict):
        return {str(k): to_document(v, digits) for k, v in value.items()}
    raise TypeError(f"cannot store {type(value).__name__}")


def from_document(tp, doc: Any) -> Any:
    """The typed value a stored document holds (the inverse of to_document, up to rounding)."""
    tp, nullable = _optional(tp)
    if doc is None:
        if not nullable:
            raise ValueError(f"missing value for {tp}")
        return None
    if dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        return tp(**{f.name: from_document(hints[f.name], doc[f.name])
                     for f in dataclasses.fields(tp) if f.name in doc})
    origin = typing.get_origin(tp)
    if origin in (tuple, list):
        (inner, *_rest) = typing.get_args(tp)
        items = [from_document(inner, v) for v in doc]
        return tuple(items) if origin is tuple else items
    if origin is dict:
        _, inner = typing.get_args(tp)
        return {k: from_document(inner, v) for k, v in doc.items()}
    if origin is Literal:
        return doc
    if tp is Decimal:
        return Decimal(doc)
    if tp is date:
        return date.fromisoformat(doc)
    if tp is float:
        return float(doc)
    return doc


def _field(tp, metadata: dict[str, Any], default: Any = dataclasses.MISSING) -> ma.fields.Field:
    tp, nullable = _optional(tp)
    kwargs: dict[str, Any] = {"required": True, "allow_none": nullable}
    if default is not dataclasses.MISSING:
        # A field added after documents were stored without it: they are served with the
        # value from_document reads them as, so every key the schema requires is there.
        kwargs["dump_default"] = default
    meta = {k: v for k, v in metadata.items() if k != "digits"}
    origin = typing.get_origin(tp)
    if dataclasses.is_dataclass(tp):
        return ma.fields.Nested(schema_for(tp), metadata=meta, **kwargs)
    if origin in (tuple, list):
        return ma.fields.List(_field(typing.get_args(tp)[0], {}), metadata=meta, **kwargs)
    if origin is dict:
        key, inner = typing.get_args(tp)
        return ma.fields.Dict(keys=_field(key, {}), values=_field(inner, {}), metadata=meta,
                              **kwargs)
    if origin is Literal:
        choices = list(typing.get_args(tp))
        return ma.fields.String(validate=ma.validate.OneOf(choices), metadata=meta, **kwargs)
    if tp is Decimal:
        meta = {"type": "string", "pattern": DECIMAL_PATTERN, **meta}
        return ma.fields.String(metadata=meta, **kwargs)
    if tp is date:
        return ma.fields.String(metadata={"format": "date", **meta}, **kwargs)
    simple = {bool: ma.fields.Boolean, int: ma.fields.Integer, float: ma.fields.Float,
              str: ma.fields.String}
    if tp in simple:
        return simple[tp](metadata=meta, **kwargs)
    raise TypeError(f"no schema field for {tp!r}")


@cache
def schema_for(cls, base: type[ma.Schema] = ma.Schema) -> type[ma.Schema]:
    """The marshmallow schema of a dataclass, named after it (for the OpenAPI components);
    `base`, the schema class it derives from (its nested dataclasses' derive from Schema)."""
    hints = _hints(cls)
    attrs: dict[str, Any] = {f.name: _field(hints[f.name], dict(f.metadata), f.default)
                             for f in dataclasses.fields(cls)}
    doc = (cls.__doc__ or "").strip()
    # A dataclass without a docstring gets its signature as one: not a description.
    attrs["__doc__"] = None if doc.startswith(f"{cls.__name__}(") else doc.split("\n")[0] or None
    attrs["__module__"] = cls.__module__
    return type(f"{cls.__name__}Schema", (base,), attrs)
