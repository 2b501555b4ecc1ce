"""Quotes: a ranked configuration priced on the server and frozen, with revisions and exports."""

from __future__ import annotations

from flask import Response, json, url_for
from flask.views import MethodView

from service import client_secrets, db, idempotency, quote_exports, quotes
from service.api.blueprint import Blueprint, not_modified
from service.auth import current_principal, requires
from service.config import settings
from service.errors import field_problem
from service.schemas import headers as h
from service.schemas import quotes as s
from service.security import DOCUMENT_POLICY

blp = Blueprint("quotes", __name__, url_prefix="/v1/quotes",
                description="Priced, frozen offers with numbers, revisions and exports")

READ = ("quotes:read", "quotes:write", "quotes:request")
# Built once: dumping keeps no state between requests.
QUOTE_SCHEMA = s.QuoteSchema()


def visible(quote_id) -> quotes.Quote:
    """The caller's quote; a publishable key names it by its client secret too (else 404)."""
    principal = current_principal()
    return quotes.get(db.session(), str(quote_id), principal, client_secrets.required(principal))


def render(quote) -> dict:
    return QUOTE_SCHEMA.dump(quotes.view(db.session(), quote))


def with_headers(body: dict, quote, status: int = 200, replay: bool = False) -> Response:
    """The serialised quote with its ETag and Location (and, replayed, saying so)."""
    headers = {"ETag": quotes.etag(quote), "Location": url_for("quotes.QuoteById", quote_id=quote.id)}
    return Response(json.dumps(body), status=status, mimetype="application/json",
                    headers=idempotency.replayed(headers) if replay else headers)


@blp.route("")
class Quotes(MethodView):
    @requires(blp, "quotes:write", "quotes:request")
    @blp.arguments(s.QuoteRequestSchema, example={
        "configuration": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 4,
                          "region": "us-east"},
        "term": "1y", "currency": "EUR", "support": "business", "valid_days": 30,
        "customer": {"name": "Ada Example", "company": "Example Labs GmbH",
                     "email": "ada@example.com", "country": "DE"},
    })
    @blp.arguments(h.IdempotencyHeaderSchema, location="headers")
    @blp.arguments(h.ClientSecretHeaderSchema, location="headers")
    @blp.response(201, s.QuoteSchema, headers={"Location": {"schema": {"type": "string"}},
                                               "ETag": {"schema": {"type": "string"}}})
    @blp.alt_response(409, description="A request with this Idempotency-Key is still being "
                                       "processed; retry after Retry-After")
    @blp.alt_response(422, description="Invalid input, an unknown or unready sizing, nodes the "
                                       "region cannot deliver, or a reused Idempotency-Key with "
                                       "another request")
    @blp.doc(operationId="createQuote", summary="Quote a sizing's configuration or an explicit one",
             description="A publishable key quotes a sizing it made, with the client_secret the "
                         "sizing's creation returned, in the Client-Secret header as on every "
                         "route that reads the sizing (or, as before, in sizing_client_secret; "
                         "both, differing, are a 422 naming sizing_client_secret).")
    def post(self, body, headers, secret):
        session = db.session()
        principal = current_principal()
        body = quotes.with_sizing_secret(body, secret.get("client_secret"))
        quotes.check_permission(principal, body)
        with idempotency.guarded(session, principal, headers.get("idempotency_key"), body,
                                 settings().idempotency_key_ttl_s) as held:
            if held and held.replay:
                quote = session.get(quotes.Quote, held.row.resource_id)
                return with_headers({**render(quote), "client_secret": held.row.client_secret},
                                    quote, 201, replay=True)
            quote, secret = quotes.create(session, principal, body, held)
        return with_headers({**render(quote), "client_secret": secret}, quote, 201)

    @requires(blp, "quotes:read", "quotes:write")
    @blp.arguments(s.QuoteQuerySchema, location="query", unknown="raise", as_kwargs=True)
    @blp.response(200, s.QuotePageSchema)
    @blp.doc(operationId="listQuotes",
             summary="The account's quotes, newest first, filtered, by cursor (secret keys only)",
             description="Every quote of the account, including the quote requests the page's "
                         "publishable key made (`origin: page`). A publishable key lists nothing.")
    def get(self, limit, cursor=None, status=None, created_from=None, created_to=None,
            origin=None):
        session = db.session()
        try:
            rows, next_cursor = quotes.page(session, current_principal(), limit=limit, cursor=cursor,
                                            status=status, created_from=created_from,
                                            created_to=created_to, origin=origin)
        except ValueError:
            raise field_problem("/query/cursor", "not a cursor from this API") from None
        return {"items": [quotes.view(session, q) for q in rows], "next_cursor": next_cursor}


@blp.route("/<uuid:quote_id>")
class QuoteById(MethodView):
    @requires(blp, *READ)
    @blp.arguments(h.ClientSecretHeaderSchema, location="headers")
    @blp.response(200, s.QuoteSchema, headers={"ETag": {"schema": {"type": "string"}}})
    @blp.alt_response(304, description="Not modified since the ETag in If-None-Match")
    @blp.alt_response(404, description="No such quote (or not yours)")
    @blp.doc(operationId="getQuote", summary="A quote with its current revision")
    def get(self, _secret, quote_id):
        quote = visible(quote_id)
        if not_modified(quotes.etag(quote).strip('"')):
            return Response(status=304, headers={"ETag": quotes.etag(quote)})
        return with_headers(render(quote), quote)

    @requires(blp, "quotes:write")
    @blp.arguments(s.QuoteChangeSchema, example={"status": "sent"})
    @blp.arguments(h.IfMatchHeaderSchema, location="headers")
    @blp.response(200, s.QuoteSchema, headers={"ETag": {"schema": {"type": "string"}}})
    @blp.alt_response(404, description="No such quote (or not yours)")
    @blp.alt_response(409, description="Transition not allowed, the quote is closed, or its "
                                       "nodes cannot be delivered (to sent or accepted)")
    @blp.alt_response(412, description="If-Match does not match the current ETag")
    @blp.alt_response(428, description="If-Match is missing")
    @blp.doc(operationId="updateQuote", summary="Change a quote's status or customer",
             description="A change that changes nothing answers the quote as it is, with the "
                         "same ETag.")
    def patch(self, body, headers, quote_id):
        quote = visible(quote_id)
        quotes.check_if_match(quote, headers.get("if_match"))
        return with_headers(render(quotes.change(db.session(), quote, body)), quote)


@blp.route("/<uuid:quote_id>/reprice")
class QuoteReprice(MethodView):
    @requires(blp, "quotes:write")
    @blp.arguments(s.RepriceRequestSchema, required=False, example={})
    @blp.arguments(h.IfMatchHeaderSchema, location="headers")
    @blp.response(200, s.QuoteSchema, headers={"ETag": {"schema": {"type": "string"}}})
    @blp.alt_response(404, description="No such quote (or not yours)")
    @blp.alt_response(409, description="The quote is accepted or expired, or its stored "
                                       "customer's VAT id fails today's tax rules "
                                       "(customer_vat_id_invalid): PATCH the customer first")
    @blp.alt_response(412, description="If-Match does not match the current ETag")
    @blp.alt_response(428, description="If-Match is missing")
    @blp.doc(operationId="repriceQuote",
             summary="A new revision at the current catalog prices, showing the difference",
             description="A quote already priced at the current catalog version is answered as "
                         "it is, with the same ETag and no new revision.")
    def post(self, _empty, headers, quote_id):
        quote = visible(quote_id)
        quotes.check_if_match(quote, headers.get("if_match"))
        return with_headers(render(quotes.reprice(db.session(), quote)), quote)


@blp.route("/<uuid:quote_id>/export.csv")
class QuoteCsv(MethodView):
    @requires(blp, *READ)
    @blp.arguments(h.ClientSecretHeaderSchema, location="headers")
    @blp.response(200, content_type="text/csv",
                  description="One table: line items, then totals and tax as rows of the same "
                              "columns (quote number, currency and configuration in each row)")
    @blp.alt_response(404, description="No such quote (or not yours)")
    @blp.doc(operationId="exportQuoteCsv", summary="The quote's lines and totals as CSV")
    def get(self, _secret, quote_id):
        quote = visible(quote_id)
        body = quote_exports.as_csv(render(quote))
        return Response(body, mimetype="text/csv", headers={
            "Content-Disposition": f'attachment; filename="{quote.number}.csv"'})


@blp.route("/<uuid:quote_id>/document")
class QuoteDocument(MethodView):
    @requires(blp, *READ)
    @blp.arguments(h.ClientSecretHeaderSchema, location="headers")
    @blp.response(200, content_type="text/html", description="A print-ready quote document")
    @blp.alt_response(404, description="No such quote (or not yours)")
    @blp.doc(operationId="getQuoteDocument",
             summary="A printable quote: lines, totals, validity, assumptions, performance, advice")
    def get(self, _secret, quote_id):
        quote = visible(quote_id)
        return Response(quote_exports.as_html(render(quote)), mimetype="text/html",
                        headers={"Content-Security-Policy": DOCUMENT_POLICY})


@blp.route("/<uuid:quote_id>/document.pdf")
class QuotePdf(MethodView):
    @requires(blp, *READ)
    @blp.arguments(h.ClientSecretHeaderSchema, location="headers")
    @blp.response(200, content_type="application/pdf", description="The quote as an A4 PDF")
    @blp.alt_response(404, description="No such quote (or not yours)")
    @blp.doc(operationId="getQuotePdf",
             summary="The quote as a PDF: the same content as the printable document")
    def get(self, _secret, quote_id):
        quote = visible(quote_id)
        return Response(quote_exports.as_pdf(render(quote)), mimetype="application/pdf", headers={
            "Content-Disposition": f'attachment; filename="{quote.number}.pdf"'})
