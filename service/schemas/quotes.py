"""Schemas of quotes: the request, the frozen priced offer, and changes to it."""

from __future__ import annotations

from typing import ClassVar

import marshmallow as ma
from marshmallow import validate as v

from catalog.pricing import SUPPORT_TIERS, TERMS
from service import client_secrets
from service.quote_document import QuoteDocument
from service.records import QUOTE_STATES
from service.schemas import fields as f
from service.schemas.workload import Strict
from service.typed import schema_for

Money = ma.fields.String  # decimal strings: money never travels as a float


class CustomerSchema(Strict):
    name = f.Text(required=True, min_length=1, max_length=200)
    company = f.Text(max_length=200)
    email = ma.fields.Email(validate=v.Length(max=254))
    country = f.Country(metadata={"description": "Decides the tax line; an officially assigned "
                                                 "ISO 3166-1 alpha-2 code"})
    # An EU VAT id is its prefix and up to 12 characters (Art. 215); other countries' business
    # numbers have their own forms: Japan's T and 13 digits, a US EIN's 12-3456789.
    vat_id = f.Code("[0-9A-Z][0-9A-Za-z+*.-]{3,19}",
                    "a VAT identification number, e.g. FR40303265045, or outside the EU the "
                    "business's tax registration number, e.g. T1234567890123",
                    metadata={"description": "A business customer's VAT id. In an EU country it "
                                             "carries that country's prefix (Greece's is EL; "
                                             "another is a 422) and is reverse charged in "
                                             "another EU country than the provider's; outside "
                                             "the EU it is the business's own tax registration "
                                             "number in its country's format (Japan's T and 13 "
                                             "digits, Singapore's GST number, a US EIN), which "
                                             "marks a business: none of the provider's VAT"})


class ExplicitConfigurationSchema(Strict):
    server = f.Identifier(required=True, metadata={"example": "hgx-h100-8"})
    fabric = f.Identifier(required=True, metadata={"example": "ib-ndr-400"})
    nodes = f.Integer(required=True, validate=v.Range(min=1, max=4096))
    region = f.Identifier(required=True, metadata={"example": "us-east"})
    oversubscription = f.Number(validate=v.Range(min=1, max=16))


class QuoteRequestSchema(Strict):
    """Either a sizing's ranked configuration, or an explicit configuration."""

    spec_rules: ClassVar[dict] = {**f.valid_unless(*f.exactly_one("sizing_id", "configuration")),
                                  "dependentRequired": {"rank": ["sizing_id"],
                                                        "sizing_client_secret": ["sizing_id"]}}

    sizing_id = f.UUID(metadata={"description": "A succeeded sizing of yours"})
    rank = f.Integer(validate=v.Range(min=1, max=50),
                     metadata={"description": "Its ranked configuration (default 1)"})
    configuration = ma.fields.Nested(ExplicitConfigurationSchema)
    term = ma.fields.String(validate=v.OneOf(TERMS),
                            metadata={"description": "Default: the sizing's, else monthly"})
    currency = f.Code("[A-Z]{3}", "ISO 4217, e.g. EUR",
                      metadata={"description": "ISO 4217; default: the sizing's, else USD"})
    support = ma.fields.String(load_default="none", validate=v.OneOf(SUPPORT_TIERS))
    valid_days = f.Integer(load_default=30, validate=v.Range(min=1, max=90))
    customer = ma.fields.Nested(CustomerSchema, required=True)
    sizing_client_secret = ma.fields.String(
        validate=f.FullMatch(client_secrets.PATTERN, error="Not a client secret."),
        metadata={"description": "Publishable keys: the client_secret the sizing's creation "
                                 "returned (required with sizing_id); secret keys need none"})

    @ma.validates_schema
    def _one_source(self, data, **_):
        if ("sizing_id" in data) == ("configuration" in data):
            raise ma.ValidationError("give exactly one of sizing_id or configuration", "sizing_id")
        if "rank" in data and "sizing_id" not in data:
            raise ma.ValidationError("rank picks a configuration of a sizing", "rank")
        if "sizing_client_secret" in data and "sizing_id" not in data:
            raise ma.ValidationError("is the client secret of the sizing_id quoted",
                                     "sizing_client_secret")


class QuoteChangeSchema(Strict):
    status = ma.fields.String(validate=v.OneOf(QUOTE_STATES),
                              metadata={"description": "draft -> sent -> accepted; draft or sent -> expired"})
    customer = ma.fields.Nested(CustomerSchema, metadata={
        "description": "Replaces the customer; a different country or VAT id re-prices the tax "
                       "into a new revision (reason customer_country_changed) at the same "
                       "frozen prices"})


class RepriceRequestSchema(Strict):
    """Re-pricing takes nothing but If-Match: the body, if any, is the empty object, read like
    every other body so that a malformed one or a field it does not take is refused, not ignored."""


class QuoteQuerySchema(Strict):
    limit = f.QueryInteger(load_default=20, validate=v.Range(min=1, max=100))
    cursor = ma.fields.String(validate=v.Length(min=1, max=200), metadata={
        "description": "next_cursor of the previous page, with the same filters"})
    status = ma.fields.String(validate=v.OneOf(QUOTE_STATES))
    origin = f.Origin()
    created_from = f.Timestamp(metadata={"description": "ISO 8601 with offset"})
    created_to = f.Timestamp(metadata={"description": "ISO 8601 with offset"})


class RevisionSummarySchema(ma.Schema):
    revision = ma.fields.Integer(required=True)
    catalog_version = ma.fields.Integer(required=True)
    reason = ma.fields.String(required=True, metadata={
        "description": "created, repriced or customer_country_changed"})
    created_at = ma.fields.DateTime(required=True)
    grand_total = Money(required=True)


class QuoteSchema(schema_for(QuoteDocument)):
    """A quote: its record, its current revision in full, earlier ones in summary."""

    id = ma.fields.String(required=True)
    origin = f.OriginField()
    client_secret = f.ClientSecretField()
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
