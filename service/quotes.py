"""Quotes: a configuration priced on the server, frozen at a catalog version, with revisions."""

from __future__ import annotations

import csv
import io
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import and_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from catalog import queries
from catalog.pricing import TERM_MONTHS, Configuration, PricingError, line_items
from catalog.snapshot import Snapshot, snapshot
from catalog.tables import utcnow
from service import client_secrets, sizings
from service.accounts import Principal
from service.errors import Problem, field_problem
from service.idempotency import Claim
from service.pagination import listing, newest_first
from service.records import Quote, QuoteCounter, QuoteRevision

TRANSITIONS = {"draft": {"sent", "expired"}, "sent": {"accepted", "expired"}}
FINAL = ("accepted", "expired")


# ------------------------------------------------------------------------------ pricing

def price(snap: Snapshot, config: Configuration, *, term: str, currency: str, support: str,
          country: str | None) -> dict[str, Any]:
    """Line items and totals in the quote's currency; every amount is rounded, then summed."""
    book = snap.prices
    if currency not in book.rates:
        raise field_problem("/currency", f"not offered; choose one of {', '.join(sorted(book.rates))}")
    try:
        items = line_items(book, config, support)
    except PricingError as exc:
        raise field_problem("/configuration", str(exc)) from None
    fx = book.rates[currency] / book.rates[book.currency]
    discount_rate = book.term_discounts[term]
    lines, recurring = [], {"list": Decimal(0), "discount": Decimal(0), "net": Decimal(0)}
    one_time = Decimal(0)
    for item in items:
        unit_price = book.round(item.unit_price * fx, currency)
        list_amount = book.round(item.quantity * unit_price, currency)
        rate = discount_rate if item.recurring and item.discountable else Decimal(0)
        discount = book.round(list_amount * rate, currency)
        net = list_amount - discount
        lines.append({"code": item.code, "description": item.description,
                      "quantity": str(item.quantity.normalize()), "unit": item.unit,
                      "unit_price": str(unit_price), "list_amount": str(list_amount),
                      "discount_rate": str(rate), "discount": str(discount), "net": str(net),
                      "billing": "monthly" if item.recurring else "one_time"})
        if item.recurring:
            recurring["list"] += list_amount
            recurring["discount"] += discount
            recurring["net"] += net
        else:
            one_time += net
    months = TERM_MONTHS[term]
    term_net = recurring["net"] * months + one_time
    tax_rate = book.tax_rates.get(country) if country else None
    tax = book.round(term_net * tax_rate, currency) if tax_rate is not None else Decimal(0)
    totals = {
        "monthly_list": str(recurring["list"]), "monthly_discount": str(recurring["discount"]),
        "monthly_net": str(recurring["net"]), "one_time": str(one_time), "term_months": months,
        "term_net": str(term_net),
        "tax_rate": None if tax_rate is None else str(tax_rate), "tax": str(tax),
        "grand_total": str(term_net + tax),
    }
    notes = [(f"A month is {book.hours_per_month} hours; monthly lines bill per month for "
              f"{months} month{'s' if months > 1 else ''}."),
             f"Term discount {discount_rate * 100:g}% on recurring lines ({term})."]
    if currency != book.currency:
        notes.append(f"Converted from {book.currency} at {book.rates[currency]} {currency} per "
                     f"{book.currency} (rates of {book.rates_date}).")
    if country and tax_rate is None:
        notes.append(f"No tax rate on file for {country}: tax not included; finance confirms it "
                     "at invoicing.")
    return {"currency": currency, "exchange_rate": str(book.rates[currency]),
            "rates_date": book.rates_date, "term": term, "hours_per_month": book.hours_per_month,
            "support": support, "lines": lines, "totals": totals, "notes": notes}


def stock_of(snap: Snapshot, config: Configuration) -> dict[str, Any]:
    available, lead = snap.stock.get((config.region, config.server), (0, 0))
    short = config.nodes > available
    return {"available_nodes": available, "lead_time_days": lead if short else 0,
            "warning": (f"{config.region} has {available} of the {config.nodes} nodes now; the "
                        f"rest arrive in about {lead} days") if short else None}


def configuration_view(snap: Snapshot, config: Configuration) -> dict[str, Any]:
    server = snap.servers[config.server]
    return {"server": {"id": server.id, "name": server.name},
            "fabric": {"id": config.fabric, "name": snap.fabrics[config.fabric].name},
            "nodes": config.nodes, "gpus": config.nodes * server.gpus_per_node,
            "gpu": server.gpu.id, "region": config.region,
            "oversubscription": config.oversubscription, "nics_per_node": config.nics_used}


def revision_document(snap: Snapshot, config: Configuration, terms: dict[str, Any],
                      performance: dict | None, advice: dict | None) -> dict[str, Any]:
    doc = price(snap, config, term=terms["term"], currency=terms["currency"],
                support=terms["support"], country=terms.get("country"))
    doc.update({
        "catalog_version": snap.version_id,
        "configuration": configuration_view(snap, config),
        "valid_until": (date.today() + timedelta(days=terms["valid_days"])).isoformat(),
        "stock": stock_of(snap, config),
        "performance": performance,
        "network_advice": advice,
    })
    return doc


# ------------------------------------------------------------------------------ creation

def resolve_configuration(session: Session, snap: Snapshot, principal: Principal,
                          body: dict[str, Any]) -> tuple[Configuration, dict, dict | None, dict | None, str | None]:
    """The configuration to price, the terms, and the frozen performance and advice."""
    terms = {k: body.get(k) for k in ("term", "currency", "support", "valid_days")}
    terms["country"] = (body.get("customer") or {}).get("country")
    if "sizing_id" in body:
        sizing = sizings.get(session, body["sizing_id"], principal, body.get("sizing_client_secret"))
        if sizing is None:
            raise Problem(404, "not_found", f"No sizing {body['sizing_id']}")
        if sizing.status != "succeeded":
            raise field_problem("/sizing_id", f"the sizing is {sizing.status}; quote a succeeded sizing",
                          "sizing_not_ready")
        configs = sizing.result["configurations"]
        rank = body.get("rank", 1)
        if not 1 <= rank <= len(configs):
            raise field_problem("/rank", f"the sizing has {len(configs)} ranked configurations")
        chosen = configs[rank - 1]
        request = sizing.request
        terms["term"] = terms["term"] or request["term"]
        terms["currency"] = terms["currency"] or request["currency"]
        config_doc = {"server": chosen["server"]["id"], "fabric": chosen["fabric"]["id"],
                      "nodes": chosen["nodes"], "region": request["region"]}
        performance = {k: chosen.get(k) for k in (
            "scaling_efficiency", "tokens_per_s", "samples_per_s", "mfu", "step_time_s",
            "communication_share", "time_to_train_hours", "bottleneck", "layout")}
        performance["workload"] = request["workload"]
        performance["sizing_catalog_version"] = sizing.catalog_version_id
        advice = sizing.result.get("network_advice")
        sizing_id = sizing.id
    else:
        config_doc, performance, advice, sizing_id = body["configuration"], None, None, None
    terms["term"] = terms["term"] or "monthly"
    terms["currency"] = terms["currency"] or "USD"
    server, fabric = config_doc["server"], config_doc["fabric"]
    if server not in snap.servers:
        raise field_problem("/configuration/server", f"no server {server!r} in the catalog")
    if fabric not in snap.fabrics:
        raise field_problem("/configuration/fabric", f"no fabric {fabric!r} in the catalog")
    pairing = snap.pairings[(server, fabric)]
    if not pairing.supported:
        raise field_problem("/configuration/fabric", f"{server} cannot join {fabric}: {pairing.reason}")
    if config_doc["region"] not in snap.regions:
        raise field_problem("/configuration/region", f"unknown region; choose one of {', '.join(snap.regions)}")
    options = snap.fabric_oversubscription_options[fabric]
    ratio = config_doc.get("oversubscription") or min(options)
    if ratio not in options:
        raise field_problem("/configuration/oversubscription", f"{fabric} offers {list(options)}")
    config = Configuration(server, fabric, config_doc["nodes"], config_doc["region"],
                           pairing.nics_used, ratio)
    return config, terms, performance, advice, sizing_id


def next_number(session: Session, year: int) -> str:
    """The next number of the year, unique under concurrency: the counter row is locked by the
    increment until the creating transaction ends."""
    insert = postgresql.insert if session.bind.dialect.name == "postgresql" else sqlite.insert
    session.execute(insert(QuoteCounter).values(year=year, last=0).on_conflict_do_nothing())
    last = session.execute(update(QuoteCounter).where(QuoteCounter.year == year)
                           .values(last=QuoteCounter.last + 1).returning(QuoteCounter.last)).scalar_one()
    return f"Q-{year}-{last:06d}"


def check_permission(principal: Principal, body: dict[str, Any]) -> None:
    """What a publishable key may ask for: a quote of a sizing it made, with that sizing's secret."""
    if not principal.publishable:
        return
    if "configuration" in body:
        raise Problem(403, "insufficient_scope",
                      "A publishable key can only request quotes of the sizings it made")
    if "sizing_client_secret" not in body:
        raise field_problem("/sizing_client_secret", "a publishable key quotes a sizing with the "
                                                     "client_secret its creation returned")


def create(session: Session, principal: Principal, body: dict[str, Any],
           claim: Claim | None = None) -> tuple[Quote, str]:
    """Price and freeze a new quote; returns it with its client secret (shown once).

    An Idempotency-Key's claim is completed in the same transaction, so the key points at
    the quote exactly when the quote exists.
    """
    check_permission(principal, body)
    snap = snapshot(session, queries.resolve_version(session).id)
    config, terms, performance, advice, sizing_id = resolve_configuration(session, snap, principal, body)
    document = revision_document(snap, config, terms, performance, advice)
    secret, secret_sha256 = client_secrets.new()
    quote = Quote(account_id=principal.account_id, api_key_id=principal.key_id,
                  client_secret_sha256=secret_sha256, origin=client_secrets.origin(principal),
                  number=next_number(session, utcnow().year), customer=body.get("customer") or {},
                  sizing_id=sizing_id)
    session.add(quote)
    session.flush()
    session.add(QuoteRevision(quote_id=quote.id, revision=1, catalog_version_id=snap.version_id,
                              reason="created", document=document))
    if claim:
        claim.complete(quote.id, 201, secret)
    session.commit()
    return quote, secret


# ------------------------------------------------------------------------------ reading and changes

def visible_to(principal: Principal, client_secret: str | None):
    """The account's quotes; for a publishable key only the one it made whose secret it shows."""
    condition = Quote.account_id == principal.account_id
    if principal.publishable:
        condition = and_(condition, Quote.api_key_id == principal.key_id,
                         Quote.client_secret_sha256 == client_secrets.digest(client_secret or ""))
    return condition


def get(session: Session, quote_id: str, principal: Principal,
        client_secret: str | None = None) -> Quote:
    quote = session.scalars(select(Quote).where(Quote.id == quote_id,
                                                visible_to(principal, client_secret))).first()
    if quote is None:
        raise Problem(404, "not_found", f"No quote {quote_id}")
    expire_if_due(session, quote)
    return quote


def revisions(session: Session, quote: Quote) -> list[QuoteRevision]:
    return list(session.scalars(select(QuoteRevision).where(QuoteRevision.quote_id == quote.id)
                                .order_by(QuoteRevision.revision)))


def current(session: Session, quote: Quote) -> QuoteRevision:
    return session.get(QuoteRevision, (quote.id, quote.revision))


def expire_if_due(session: Session, quote: Quote) -> None:
    if quote.status in FINAL:
        return
    valid_until = date.fromisoformat(current(session, quote).document["valid_until"])
    if valid_until < date.today():
        session.execute(update(Quote).where(Quote.id == quote.id, Quote.status == quote.status)
                        .values(status="expired", lock_version=Quote.lock_version + 1))
        session.commit()
        session.refresh(quote)


def etag(quote: Quote) -> str:
    return f'"{quote.id[:8]}-{quote.lock_version}"'


def check_if_match(quote: Quote, if_match: str | None) -> None:
    if not if_match:
        raise Problem(428, "precondition_required",
                      "Send If-Match with the quote's ETag to change it")
    candidates = {tag.strip() for tag in if_match.split(",")}
    if "*" not in candidates and etag(quote) not in candidates:
        raise Problem(412, "precondition_failed",
                      "The quote changed since you read it; GET it again and retry",
                      headers={"ETag": etag(quote)})


def bump(session: Session, quote: Quote, **values) -> None:
    """Apply a change only if nobody changed the quote meanwhile (compare-and-set)."""
    result = session.execute(update(Quote).where(Quote.id == quote.id,
                                                 Quote.lock_version == quote.lock_version)
                             .values(lock_version=quote.lock_version + 1, updated_at=utcnow(), **values))
    if result.rowcount != 1:
        session.rollback()
        raise Problem(412, "precondition_failed", "The quote changed concurrently; GET it again")


def change(session: Session, quote: Quote, body: dict[str, Any]) -> Quote:
    """A status or customer change; a new country re-prices the tax into a new revision."""
    if quote.status in FINAL:
        raise Problem(409, "quote_closed", f"The quote is {quote.status} and can no longer change")
    values: dict[str, Any] = {}
    if "status" in body and body["status"] != quote.status:
        if body["status"] not in TRANSITIONS[quote.status]:
            allowed = ", ".join(sorted(TRANSITIONS[quote.status]))
            raise Problem(409, "invalid_transition",
                          f"A {quote.status} quote can become {allowed}, not {body['status']}",
                          errors=[{"pointer": "/status", "detail": f"allowed: {allowed}"}])
        values["status"] = body["status"]
    if "customer" in body:
        values["customer"] = body["customer"]
        if body["customer"].get("country") != quote.customer.get("country"):
            # The tax line follows the customer's country at every change: the same frozen
            # prices, taxed for the new country, as a revision of its own.
            old = current(session, quote)
            revise(session, quote, snapshot(session, old.catalog_version_id),
                   "customer_country_changed", body["customer"].get("country"),
                   valid_until=old.document["valid_until"], **values)
            return quote
    bump(session, quote, **values)
    session.commit()
    session.refresh(quote)
    return quote


def reprice(session: Session, quote: Quote) -> Quote:
    """A new revision at the current catalog version; the old one stays as it was."""
    if quote.status in FINAL:
        raise Problem(409, "quote_closed", f"The quote is {quote.status} and can no longer change")
    revise(session, quote, snapshot(session, queries.resolve_version(session).id), "repriced",
           quote.customer.get("country"))
    return quote


def revise(session: Session, quote: Quote, snap: Snapshot, reason: str, country: str | None, *,
           valid_until: str | None = None, **values) -> None:
    """Price the quote's configuration again into a new revision, with the change from the last.

    `valid_until` keeps the validity of the revision it replaces; otherwise the new revision is
    valid as many days from today as the old one was from its own date.
    """
    old = current(session, quote)
    cfg = old.document["configuration"]
    config = Configuration(cfg["server"]["id"], cfg["fabric"]["id"], cfg["nodes"], cfg["region"],
                           cfg["nics_per_node"], cfg["oversubscription"])
    valid_days = (date.fromisoformat(old.document["valid_until"]) - old.created_at.date()).days
    terms = {"term": old.document["term"], "currency": old.document["currency"],
             "support": old.document["support"], "country": country,
             "valid_days": max(valid_days, 1)}
    document = revision_document(snap, config, terms, old.document["performance"],
                                 old.document["network_advice"])
    if valid_until:
        document["valid_until"] = valid_until
    before, after = Decimal(old.document["totals"]["grand_total"]), Decimal(document["totals"]["grand_total"])
    document["change_from_previous"] = {
        "previous_revision": old.revision, "previous_catalog_version": old.catalog_version_id,
        "grand_total_delta": str(after - before),
        "monthly_net_delta": str(Decimal(document["totals"]["monthly_net"])
                                 - Decimal(old.document["totals"]["monthly_net"])),
    }
    new_revision = quote.revision + 1
    bump(session, quote, revision=new_revision, **values)
    session.add(QuoteRevision(quote_id=quote.id, revision=new_revision,
                              catalog_version_id=snap.version_id, reason=reason,
                              document=document))
    session.commit()
    session.refresh(quote)


def page(session: Session, principal: Principal, *, limit: int, cursor: str | None,
         status: str | None, created_from: datetime | None, created_to: datetime | None,
         origin: str | None = None):
    """A page of the account's quotes; never for a publishable key, whatever its scopes."""
    if principal.publishable:
        raise client_secrets.no_listing()
    query = select(Quote).where(Quote.account_id == principal.account_id)
    if origin:
        query = query.where(Quote.origin == origin)
    if status:
        query = query.where(Quote.status == status)
    if created_from:
        query = query.where(Quote.created_at >= created_from)
    if created_to:
        query = query.where(Quote.created_at < created_to)
    return newest_first(session, query, Quote, limit=limit, cursor=cursor, scope=listing(
        "quotes", principal.account_id, status=status, origin=origin, created_from=created_from,
        created_to=created_to))


def view(session: Session, quote: Quote) -> dict[str, Any]:
    """The quote as the API shows it: its current revision in full, earlier ones in summary."""
    revs = revisions(session, quote)
    doc = next(r.document for r in revs if r.revision == quote.revision)
    return {
        "id": quote.id, "origin": quote.origin, "number": quote.number, "status": quote.status,
        "revision": quote.revision,
        "customer": quote.customer, "sizing_id": quote.sizing_id,
        "created_at": quote.created_at, "updated_at": quote.updated_at,
        **doc,
        "revisions": [{"revision": r.revision, "catalog_version": r.catalog_version_id,
                       "reason": r.reason, "created_at": r.created_at,
                       "grand_total": r.document["totals"]["grand_total"]} for r in revs],
    }


# ------------------------------------------------------------------------------ exports

def as_csv(view: dict[str, Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["quote", view["number"], "revision", view["revision"], "currency",
                     view["currency"], "term", view["term"], "valid_until", view["valid_until"]])
    writer.writerow(["code", "description", "quantity", "unit", "unit_price", "list_amount",
                     "discount_rate", "discount", "net", "billing"])
    for line in view["lines"]:
        writer.writerow([line[k] for k in ("code", "description", "quantity", "unit", "unit_price",
                                           "list_amount", "discount_rate", "discount", "net",
                                           "billing")])
    for key, value in view["totals"].items():
        writer.writerow(["total", key, value])
    return out.getvalue()

