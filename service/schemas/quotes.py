"""Schemas of quotes: the request, the frozen priced offer, and changes to it."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import validate as v

from catalog.pricing import SUPPORT_TIERS, TERMS
from service.quote_document import QuoteDocument
from service.records import QUOTE_STATES
from service.schemas.workload import Strict
from service.typed import schema_for

Money = ma.fields.String  # decimal strings: money never travels as a float


class CustomerSchema(Strict):
    name = ma.fields.String(required=True, validate=v.Length(min=1, max=200))
    company = ma.fields.String(validate=v.Length(max=200))
    email = ma.fields.Email()
    country = ma.fields.String(validate=v.Regexp(r"^[A-Z]{2}$", error="ISO 3166-1 alpha-2, e.g. DE"),
                               metadata={"description": "Decides the tax line"})
    vat_id = ma.fields.String(
        validate=v.Regexp(r"\A[A-Z]{2}[0-9A-Za-z+*.]{2,13}\Z",
                          error="a VAT identification number, e.g. FR40303265045"),
        metadata={"description": "A business customer's VAT id: reverse charge in the EU "
                                 "outside the provider's country"})


class ExplicitConfigurationSchema(Strict):
    server = ma.fields.String(required=True, metadata={"example": "hgx-h100-8"})
    fabric = ma.fields.String(required=True, metadata={"example": "ib-ndr-400"})
    nodes = ma.fields.Integer(required=True, validate=v.Range(min=1, max=4096))
    region = ma.fields.String(required=True, metadata={"example": "us-east"})
    oversubscription = ma.fields.Float(validate=v.Range(min=1, max=16))


class QuoteRequestSchema(Strict):
    """Either a sizing's ranked configuration, or an explicit configuration."""

    sizing_id = ma.fields.UUID(metadata={"description": "A succeeded sizing of yours"})
    rank = ma.fields.Integer(validate=v.Range(min=1, max=50),
                             metadata={"description": "Its ranked configuration (default 1)"})
    configuration = ma.fields.Nested(ExplicitConfigurationSchema)
    term = ma.fields.String(validate=v.OneOf(TERMS),
                            metadata={"description": "Default: the sizing's, else monthly"})
    currency = ma.fields.String(validate=v.Regexp(r"^[A-Z]{3}$"),
                                metadata={"description": "ISO 4217; default: the sizing's, else USD"})
    support = ma.fields.String(load_default="none", validate=v.OneOf(SUPPORT_TIERS))
    valid_days = ma.fields.Integer(load_default=30, validate=v.Range(min=1, max=90))
    customer = ma.fields.Nested(CustomerSchema, required=True)

    @ma.validates_schema
    def _one_source(self, data, **_):
        if ("sizing_id" in data) == ("configuration" in data):
            raise ma.ValidationError("give exactly one of sizing_id or configuration", "sizing_id")
        if "rank" in data and "sizing_id" not in data:
            raise ma.ValidationError("rank picks a configuration of a sizing", "rank")

    @ma.post_load
    def _plain(self, data, **_):
        if "sizing_id" in data:
            data["sizing_id"] = str(data["sizing_id"])
        return data


class QuoteChangeSchema(Strict):
    status = ma.fields.String(validate=v.OneOf(QUOTE_STATES),
                              metadata={"description": "draft -> sent -> accepted; draft or sent -> expired"})
    customer = ma.fields.Nested(CustomerSchema)


class QuoteQuerySchema(Strict):
    limit = ma.fields.Integer(load_default=20, validate=v.Range(min=1, max=100))
    cursor = ma.fields.String(validate=v.Length(max=200))
    status = ma.fields.String(validate=v.OneOf(QUOTE_STATES))
    created_from = ma.fields.AwareDateTime(metadata={"description": "ISO 8601 with offset"})
    created_to = ma.fields.AwareDateTime()


class IdempotencyHeaderSchema(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    idempotency_key = ma.fields.String(
        data_key="Idempotency-Key", validate=v.Length(min=1, max=200),
        metadata={"description": "Retry-safe key: a repeat with the same body returns the first "
                                 "response; with another body it is refused (422)"})


class IfMatchHeaderSchema(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    if_match = ma.fields.String(data_key="If-Match",
                                metadata={"description": "The quote's ETag (required)"})


class RevisionSummarySchema(ma.Schema):
    revision = ma.fields.Integer(required=True)
    catalog_version = ma.fields.Integer(required=True)
    reason = ma.fields.String(required=True)
    created_at = ma.fields.DateTime(required=True)
    grand_total = Money(required=True)


class QuoteSchema(schema_for(QuoteDocument)):
    """A quote: its record, its current revision in full, earlier ones in summary."""

    id = ma.fields.String(required=True)
    number = ma.fields.String(required=True, metadata={"example": "Q-2026-000042"})
    status = ma.fields.String(required=True, validate=v.OneOf(QUOTE_STATES))
    revision = ma.fields.Integer(required=True)
    customer = ma.fields.Nested(CustomerSchema, required=True)
    sizing_id = ma.fields.String(allow_none=True, required=True)
    created_at = ma.fields.DateTime(required=True)
    updated_at = ma.fields.DateTime(required=True)
    revisions = ma.fields.List(ma.fields.Nested(RevisionSummarySchema), required=True)


class QuotePageSchema(ma.Schema):
    items = ma.fields.List(ma.fields.Nested(QuoteSchema), required=True)
    next_cursor = ma.fields.String(allow_none=True, required=True)
