"""Input fields that take exactly what the spec says: no coercion, whole-string patterns, bounds.

marshmallow's own fields are lenient where a contract must not be: Integer truncates 1.5 to 1,
Float reads the string "1e12", Boolean reads "yes" and 1, and Regexp uses re.match, whose `$`
also matches before a trailing newline. Every input schema uses these instead.
"""

from __future__ import annotations

import math
import re
from typing import Any, ClassVar

import marshmallow as ma
from marshmallow import validate as v

from catalog.countries import ISO_3166_ALPHA2_PATTERN


class Strict(ma.Schema):
    """A schema that refuses fields it does not define, so a typo is never silently ignored."""

    # Rules across fields that JSON Schema can state, added to the schema in the spec
    # (service.api.SchemaRules); the schema's own validators enforce them.
    spec_rules: ClassVar[dict[str, Any]] = {}

    class Meta:
        unknown = ma.RAISE


def present(*names: str) -> dict[str, Any]:
    return {"required": list(names)}


def exactly_one(*names: str) -> list[dict[str, Any]]:
    """The ways to break "exactly one of these": two of them, or none."""
    pairs = [present(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    return [*pairs, {"not": {"anyOf": [present(name) for name in names]}}]


def valid_unless(*violations: dict[str, Any]) -> dict[str, Any]:
    # One `not` around every way to break the rules: validators and fuzzers read it, while
    # client generators (which make a union type of a top-level oneOf or anyOf) leave the
    # model a plain object.
    return {"not": {"anyOf": list(violations)}}


# Integers past 2**53 are not exact in the IEEE doubles most JSON parsers read them into.
SAFE_INTEGER = 2**53


def anchored(pattern: str) -> str:
    """The pattern as the spec shows it, read the same by ECMA-262 (JSON Schema) and Python (the
    fuzzer's generator): Python's `$` also matches before a final newline, which `(?!\n)` rules
    out."""
    return f"^(?:{pattern})$(?!\\n)"


class FullMatch(v.Regexp):
    """A pattern the whole string must match; the spec shows it anchored (see `anchored`)."""

    def __init__(self, pattern: str, *, error: str | None = None):
        super().__init__(anchored(pattern), error=error)
        self.whole = re.compile(pattern)

    def __call__(self, value: str) -> str:
        if not isinstance(value, str) or self.whole.fullmatch(value) is None:
            raise ma.ValidationError(self._format_error(value))
        return value


class Integer(ma.fields.Integer):
    """A JSON integer: 3 or 3.0, never 3.5, "3" or true."""

    default_error_messages: ClassVar[dict[str, str]] = {"invalid": "Not a whole number."}

    def _validated(self, value: Any) -> int:
        if isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        if isinstance(value, float) and value.is_integer() and abs(value) <= SAFE_INTEGER:
            return int(value)
        if not isinstance(value, int):
            raise self.make_error("invalid", input=value)
        return value


class Number(ma.fields.Float):
    """A JSON number: 1e12 or 3, never "1e12" or true."""

    default_error_messages: ClassVar[dict[str, str]] = {"invalid": "Not a number.", "too_large": "Number too large."}

    def _validated(self, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid", input=value)
        try:
            number = float(value)
        except OverflowError:
            raise self.make_error("too_large", input=value) from None
        if not math.isfinite(number):
            raise self.make_error("special")
        return number


class Boolean(ma.fields.Boolean):
    """A JSON true or false, never "yes", 1 or "on"."""

    def _deserialize(self, value, attr, data, **kwargs) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class QueryInteger(ma.fields.Integer):
    """A whole number written in ASCII digits in a query string (no 1.0, 1e3, ١٠ or 1_000)."""

    DIGITS = re.compile(r"[0-9]{1,10}")
    default_error_messages: ClassVar[dict[str, str]] = {"invalid": "Not a whole number written in digits."}

    def _validated(self, value: Any) -> int:
        if not isinstance(value, str) or self.DIGITS.fullmatch(value) is None:
            raise self.make_error("invalid", input=value)
        return int(value)


class QueryBoolean(ma.fields.Boolean):
    """`true` or `false` in a query string."""

    default_error_messages: ClassVar[dict[str, str]] = {"invalid": "Not true or false."}

    def _deserialize(self, value, attr, data, **kwargs) -> bool:
        if value not in ("true", "false"):
            raise self.make_error("invalid", input=value)
        return value == "true"


class List(ma.fields.List):
    """A list whose length is checked before any item is read, so a huge one costs nothing."""

    def __init__(self, cls_or_instance, *, max_items: int, min_items: int = 0, **kwargs):
        super().__init__(cls_or_instance, validate=v.Length(min=min_items, max=max_items), **kwargs)
        self.max_items = max_items

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, list) and len(value) > self.max_items:
            raise ma.ValidationError(f"At most {self.max_items} items; got {len(value)}.")
        return super()._deserialize(value, attr, data, **kwargs)


# Money travels as a decimal string, never a JSON number (which a client may have rounded
# through a float).
def decimal_text(places: int) -> str:
    return rf"[0-9]{{1,15}}(\.[0-9]{{1,{places}}})?"


# At least one non-zero digit, so the amount is above 0.
POSITIVE = r"(?=[0-9.]*[1-9])"


class Amount(ma.fields.Decimal):
    """A decimal string in (greater than 0 unless `zero_allowed`, with at most `places`
    decimals), the same string out."""

    def __init__(self, *, zero_allowed: bool = False, places: int = 6, **kwargs):
        text = decimal_text(places)
        self.text = FullMatch(text if zero_allowed else POSITIVE + text, error=(
            f'must be a decimal string with at most {places} decimals, like "250000.00"'
            if zero_allowed else
            f'must be a decimal string greater than 0 with at most {places} decimals, like '
            '"250000.00"'))
        metadata = {"description": "An amount as a decimal string", "type": "string",
                    "pattern": self.text.regex.pattern, "example": "250000.00",
                    **kwargs.pop("metadata", {})}
        super().__init__(as_string=True, metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        # The text as given is checked, before it becomes a Decimal.
        return super()._deserialize(self.text(value), attr, data, **kwargs)


class Timestamp(ma.fields.AwareDateTime):
    """An ISO 8601 instant with its offset, between the years 2000 and 2999 in UTC."""

    default_error_messages: ClassVar[dict[str, str]] = {"range": "Must fall between 2000-01-01 and 2999-12-31 (UTC)."}

    def _deserialize(self, value, attr, data, **kwargs):
        instant = super()._deserialize(value, attr, data, **kwargs)
        # Checked on the instant as given: converting 9999-12-31T23:59-14:00 to UTC overflows.
        if not 2000 <= instant.year <= 2999 or not 2000 <= (instant - instant.utcoffset()).year <= 2999:
            raise self.make_error("range")
        return instant


# Catalog ids are kebab-case (catalog.files), so anything else cannot name an entry.
IDENTIFIER = r"[a-z0-9]+(-[a-z0-9]+)*"
# Free text a person typed: any character but controls (C0, DEL, C1) and the bidirectional
# embeddings, overrides and isolates, which make a name on a printed quote read as other text.
TEXT = r"[^\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]*"


def Identifier(**kwargs) -> ma.fields.String:
    """The id of a catalog entry (server, fabric, region, GPU)."""
    return ma.fields.String(validate=[v.Length(min=1, max=64), FullMatch(
        IDENTIFIER, error="Not a catalog id (kebab-case, like 'hgx-h100-8').")], **kwargs)


def Text(*, max_length: int, min_length: int = 0, **kwargs) -> ma.fields.String:
    """Free text of bounded length without control characters."""
    return ma.fields.String(validate=[v.Length(min=min_length, max=max_length), FullMatch(
        TEXT, error="Must not contain control or bidirectional-override characters.")], **kwargs)


def Code(pattern: str, error: str, **kwargs) -> ma.fields.String:
    """A short code matched as a whole (a currency, a country)."""
    return ma.fields.String(validate=FullMatch(pattern, error=error), **kwargs)


def Country(**kwargs) -> ma.fields.String:
    """An officially assigned ISO 3166-1 alpha-2 code: the format alone lets XX through."""
    return Code(ISO_3166_ALPHA2_PATTERN,
                "Not an assigned ISO 3166-1 alpha-2 country code, e.g. DE.", **kwargs)


CANONICAL_UUID = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


class UUID(ma.fields.String):
    """An id in the canonical 8-4-4-4-12 form (no braces, urn: or bare hex), read in lower case."""

    default_error_messages: ClassVar[dict[str, str]] = {"invalid_uuid": "Not a UUID in 8-4-4-4-12 form."}

    def __init__(self, **kwargs):
        metadata = {"format": "uuid", "pattern": anchored(CANONICAL_UUID.pattern),
                    **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        if CANONICAL_UUID.fullmatch(text) is None:
            raise self.make_error("invalid_uuid")
        return text.lower()


ORIGINS = ("page", "api")


def Origin(**kwargs) -> ma.fields.String:
    """A filter on where an object came from."""
    return ma.fields.String(validate=v.OneOf(ORIGINS), metadata={
        "description": "page: made with a publishable key (the website's form); api: with a "
                       "secret key"}, **kwargs)


def OriginField() -> ma.fields.String:
    return ma.fields.String(required=True, validate=v.OneOf(ORIGINS), metadata={
        "description": "page: made with a publishable key (the website's form), so from a "
                       "visitor; api: with a secret key"})


def ClientSecretField() -> ma.fields.String:
    return ma.fields.String(metadata={
        "description": "Only in the answer that created the object (and its idempotent "
                       "replays): with a publishable key, send it in the Client-Secret header to "
                       "read the object back; it is not shown again"})
