"""A schema's dump of a plain JSON document, without marshmallow's per-field machinery.

An estimate's answer is some ninety figures already JSON-ready (service.typed.to_document):
marshmallow's dump reads each through an accessor, a default check and a bound _serialize, a
tenth of the request. FastDump keeps the schema as the one definition of the answer's shape
(its fields, order and data keys) and dumps a dict through a plan compiled once per schema:
the same output as Schema.dump for the fields it knows (Float, Integer, String, Boolean,
Nested, List, Dict), each other field through its own serialize. A schema with dump hooks,
a dotted attribute or `many`, or a value that is not a dict, goes through marshmallow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import marshmallow as ma
from marshmallow.decorators import POST_DUMP, PRE_DUMP
from marshmallow.utils import missing

Dumper = Callable[[Any], Any]


def _value_dumper(field: ma.fields.Field) -> Dumper:
    """What field._serialize makes of a value (None stays None), for the plan's fields."""
    kind = type(field)
    if kind is ma.fields.Float and not field.as_string:
        return lambda v: None if v is None else float(v)
    if kind is ma.fields.Integer and not field.as_string:
        return lambda v: None if v is None else int(v)
    if kind is ma.fields.String:
        return lambda v: v if type(v) is str else field._serialize(v, None, None)
    if kind is ma.fields.Nested:
        nested = field.schema
        plan = _plan(nested) if not (nested.many or field.many) and _plain(nested) else None
        if plan is not None:
            return lambda v: None if v is None else (
                _dump_with(plan, v) if type(v) is dict else nested.dump(v))
    if kind is ma.fields.List:
        inner = _value_dumper(field.inner)
        return lambda v: None if v is None else [inner(each) for each in v]
    if kind is ma.fields.Dict and field.key_field is not None and field.value_field is not None:
        key, value = _value_dumper(field.key_field), _value_dumper(field.value_field)
        return lambda v: None if v is None else {key(k): value(x) for k, x in v.items()}
    return lambda v: field._serialize(v, None, None)


def _plain(schema: ma.Schema) -> bool:
    """Dumped field by field from its keys: no hooks, the default accessor, plain dicts."""
    return (not schema._hooks[PRE_DUMP] and not schema._hooks[POST_DUMP]
            and type(schema).get_attribute is ma.Schema.get_attribute
            and schema.dict_class is dict)


def _plan(schema: ma.Schema) -> tuple | None:
    """(attribute, output key, dump_default, value dumper) of each dumped field, in order;
    None when a field is not read by its key (a dotted attribute, or no attribute)."""
    plan = []
    for name, field in schema.dump_fields.items():
        attribute = field.attribute if field.attribute is not None else name
        if not field._CHECK_ATTRIBUTE or "." in attribute:
            return None
        key = field.data_key if field.data_key is not None else name
        plan.append((attribute, key, field.dump_default, _value_dumper(field)))
    return tuple(plan)


def _dump_with(plan: tuple, obj: dict) -> dict:
    out = {}
    for attribute, key, default, dump in plan:
        # As marshmallow's accessor: the key, else an attribute of the dict, else the default.
        value = obj[attribute] if attribute in obj else getattr(obj, attribute, missing)
        if value is missing:
            value = default() if callable(default) else default
            if value is missing:
                continue
        out[key] = dump(value)
    return out


class FastDump(ma.Schema):
    """A schema whose dump of a dict takes the compiled plan (module docstring)."""

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        plan = self.__dict__.get("_fast_plan")
        if plan is None:
            plan = (_plan(self) if _plain(self) and not self.many else None) or False
            self.__dict__["_fast_plan"] = plan
        if plan is False or many or type(obj) is not dict:
            return super().dump(obj, many=many)
        return _dump_with(plan, obj)
