"""Quotes: a configuration priced on the server, frozen at a catalog version, with revisions."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from typing import Any

from sqlalchemy import and_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from catalog import queries
from catalog.offer import delivery
from catalog.pricing import VatIdMismatch
from catalog.snapshot import Snapshot, snapshot
from catalog.tables import utcnow
from service import client_secrets, sizings
from service import quote_document as qd
from service.accounts import Principal
from service.failures import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    PreconditionFailed,
    PreconditionRequired,
)
from service.idempotency import Claim
from service.pagination import listing, newest_first
from service.quote_document import FromSizing, QuoteDocument, Terms
from service.records import Quote, QuoteCounter, QuoteRevision
from service.sizing_request import SizingRequest
from service.sizing_result import NetworkAdvice, RankedConfiguration, WorkloadSummary
from service.typed import from_document, to_document

TRANSITIONS = {"draft": {"sent", "expired"}, "sent": {"accepted", "expired"}}
# The ranked configuration a quote of a sizing takes when the request names none.
DEFAULT_RANK = 1
FINAL = ("accepted", "expired")


# ------------------------------------------------------------------------------ creation

def resolve(session: Session, snap: Snapshot, principal: Principal, body: dict[str, Any],
            today: date) -> tuple[QuoteDocument, str | None]:
    """The first revision's document, and the sizing it came from.

    A sizing's configuration is priced at the sizing's catalog version, so the quote charges
    what the sizing showed (`reprice` moves it to the current prices, showing the change); an
    explicit one at the current version `snap`. Either is sold only if `snap`'s stock, today,
    can deliver its nodes, and is taxed by `snap`'s tax rules.
    """
    customer = body.get("customer") or {}
    if "sizing_id" in body:
        sizing = sizings.get(session, body["sizing_id"], principal,
                             body.get("sizing_client_secret"))
        if sizing is None:
            # A 422 like any other unknown id in a body (an estimate's server); the same answer
            # for a sizing of another account, or without its client secret, as for none.
            raise Invalid.at("/sizing_id", f"no sizing {body['sizing_id']} visible to this key")
        if sizing.status != "succeeded":
            raise Invalid.at("/sizing_id", f"the sizing is {sizing.status}; quote a succeeded "
                             "sizing", "sizing_not_ready")
        result = sizing.result
        configs = result["configurations"]
        rank = body.get("rank", DEFAULT_RANK)
        if not 1 <= rank <= len(configs):
            raise Invalid.at("/rank", f"the sizing has {len(configs)} ranked configurations")
        try:
            ranked = from_document(RankedConfiguration, configs[rank - 1])
            from_sizing = FromSizing(ranked, from_document(WorkloadSummary, result["workload"]),
                                     from_document(NetworkAdvice | None, result["network_advice"]),
                                     sizing.catalog_version_id)
            max_lead_time_days = SizingRequest.from_document(sizing.request).max_lead_time_days
        except (KeyError, TypeError, ValueError):
            # A result stored before its shape was what the pricing engine now needs.
            raise Invalid.at("/sizing_id", "this sizing was stored by an earlier version of the "
                             "service and cannot be quoted; submit the questionnaire again",
                             "sizing_outdated") from None
        stock = snap.stock_of(ranked.region, ranked.server.id)
        prices = snapshot(session, sizing.catalog_version_id)
        # The hot spare nodes the ranking kept are billed with the job's.
        config = qd.configuration_of(prices, ranked.server.id, ranked.fabric.id,
                                     ranked.nodes + ranked.hot_spare_nodes, ranked.region,
                                     ranked.oversubscription, "/sizing_id",
                                     hot_spare_nodes=ranked.hot_spare_nodes)
        # The stock may have dropped since the sizing read it. The refusal points at what the
        # request sent: its rank, or, with none, the sizing, naming the rank it defaulted to.
        if "rank" in body:
            qd.check_deliverable(stock, config.nodes, max_lead_time_days, "/rank")
        else:
            qd.check_deliverable(stock, config.nodes, max_lead_time_days, "/sizing_id",
                                 f"rank {DEFAULT_RANK} (no rank was given): ")
        term, currency, sizing_id = ranked.price.term, ranked.price.currency, sizing.id
    else:
        if principal.publishable:
            raise Forbidden("A publishable key can only request quotes from its own sizings")
        c = body["configuration"]
        config = qd.configuration_of(snap, c["server"], c["fabric"], c["nodes"], c["region"],
                                     c.get("oversubscription"))
        stock, prices = snap.stock_of(config.region, config.server), snap
        # An explicit configuration states no deadline: nodes on order count whenever they come.
        qd.check_deliverable(stock, config.nodes, None, "/configuration/nodes")
        from_sizing, term, currency, sizing_id = None, "monthly", "USD", None
    terms = Terms(term=body.get("term") or term, currency=body.get("currency") or currency,
                  support=body["support"], valid_days=body["valid_days"],
                  country=customer.get("country"), vat_id=customer.get("vat_id"))
    billing = qd.billing_of(prices, config, terms, from_sizing)
    try:
        return qd.revision(prices, config, terms, billing, today, from_sizing, stock=stock,
                           tax_rules=snap.prices), sizing_id
    except VatIdMismatch as exc:
        raise Invalid.at("/customer/vat_id", str(exc)) from None


def next_number(session: Session, year: int) -> str:
    """The next number of the year, unique under concurrency: the counter row is locked by the
    increment until the creating transaction ends."""
    insert = postgresql.insert if session.bind.dialect.name == "postgresql" else sqlite.insert
    session.execute(insert(QuoteCounter).values(year=year, last=0).on_conflict_do_nothing())
    last = session.execute(update(QuoteCounter).where(QuoteCounter.year == year)
                           .values(last=QuoteCounter.last + 1).returning(QuoteCounter.last)).scalar_one()
    return f"Q-{year}-{last:06d}"


def with_sizing_secret(body: dict[str, Any], header: str | None) -> dict[str, Any]:
    """The request with the quoted sizing's client secret in one place: the Client-Secret
    header, as every route that reads the sizing takes it, or the older body field. Both, and
    different, is refused rather than one silently chosen."""
    if not header:  # empty is as if not sent
        return body
    given = body.get("sizing_client_secret")
    if given is not None and given != header:
        raise Invalid.at("/sizing_client_secret", f"differs from the {client_secrets.HEADER} "
                         "header; send the sizing's client secret once, in the header")
    return {**body, "sizing_client_secret": header}


def check_permission(principal: Principal, body: dict[str, Any]) -> None:
    """What a publishable key may ask for: a quote of a sizing it made, with that sizing's secret."""
    if not principal.publishable:
        return
    if "configuration" in body:
        raise Forbidden("A publishable key can only request quotes of the sizings it made")
    if "sizing_client_secret" not in body:
        raise Invalid.at("/sizing_client_secret", "a publishable key quotes a sizing with the "
                                                  "client_secret its creation returned, in the "
                                                  f"{client_secrets.HEADER} header")


def create(session: Session, principal: Principal, body: dict[str, Any],
           claim: Claim | None = None) -> tuple[Quote, str]:
    """Price and freeze a new quote; returns it with its client secret (shown once).

    An Idempotency-Key's claim is completed in the same transaction, so the key points at
    the quote exactly when the quote exists.
    """
    check_permission(principal, body)
    snap = now(session)
    document, sizing_id = resolve(session, snap, principal, body, date.today())
    secret, secret_sha256 = client_secrets.new()
    quote = Quote(account_id=principal.account_id, api_key_id=principal.key_id,
                  client_secret_sha256=secret_sha256, origin=client_secrets.origin(principal),
                  number=next_number(session, utcnow().year), customer=body.get("customer") or {},
                  sizing_id=sizing_id)
    session.add(quote)
    session.flush()
    session.add(QuoteRevision(quote_id=quote.id, revision=1,
                              catalog_version_id=document.catalog_version, reason="created",
                              document=to_document(document)))
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
        raise NotFound(f"No quote {quote_id}")
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
        raise PreconditionRequired("Send If-Match with the quote's ETag to change it")
    candidates = {tag.strip() for tag in if_match.split(",")}
    if "*" not in candidates and etag(quote) not in candidates:
        raise PreconditionFailed("The quote changed since you read it; GET it again and retry",
                                 headers={"ETag": etag(quote)})


def bump(session: Session, quote: Quote, **values) -> None:
    """Apply a change only if nobody changed the quote meanwhile (compare-and-set)."""
    result = session.execute(update(Quote).where(Quote.id == quote.id,
                                                 Quote.lock_version == quote.lock_version)
                             .values(lock_version=quote.lock_version + 1, updated_at=utcnow(), **values))
    if result.rowcount != 1:
        session.rollback()
        raise PreconditionFailed("The quote changed concurrently; GET it again")


def now(session: Session) -> Snapshot:
    """The current catalog version: its stock is what can be sold, its tax rules what applies."""
    return snapshot(session, queries.resolve_version(session).id)


def check_deliverable(session: Session, quote: Quote, status: str) -> None:
    """A quote is sent or accepted only while the region can deliver its nodes (on hand or on
    order, at the current catalog version's stock): a sale of nodes that do not exist is none."""
    if status not in ("sent", "accepted"):
        return
    configuration = current(session, quote).document["configuration"]
    stock = now(session).stock_of(configuration["region"], configuration["server"]["id"])
    undeliverable = delivery(stock, configuration["nodes"], date.today()).undeliverable
    if undeliverable:
        raise Conflict(f"{undeliverable} of the quote's {configuration['nodes']} nodes cannot be "
                       f"delivered in {configuration['region']} (stock on hand and on order); "
                       "the quote cannot be " + status, code="quote_undeliverable",
                       errors=[("/status", "the quote's nodes cannot be delivered")])


def change(session: Session, quote: Quote, body: dict[str, Any]) -> Quote:
    """A status or customer change; a new country re-prices the tax into a new revision."""
    if quote.status in FINAL:
        raise Conflict(f"The quote is {quote.status} and can no longer change", code="quote_closed")
    values: dict[str, Any] = {}
    if "status" in body and body["status"] != quote.status:
        if body["status"] not in TRANSITIONS[quote.status]:
            allowed = ", ".join(sorted(TRANSITIONS[quote.status]))
            raise Conflict(f"A {quote.status} quote can become {allowed}, not {body['status']}",
                           code="invalid_transition", errors=[("/status", f"allowed: {allowed}")])
        check_deliverable(session, quote, body["status"])
        values["status"] = body["status"]
    if "customer" in body and body["customer"] != quote.customer:
        values["customer"] = body["customer"]
        taxed_as = lambda c: (c.get("country"), c.get("vat_id"))
        if taxed_as(body["customer"]) != taxed_as(quote.customer):
            # The tax line follows the customer's country (and VAT id) at every change: the
            # same frozen prices, taxed for the new customer by today's rules, as a revision
            # of its own.
            old = current(session, quote)
            try:
                revise(session, quote, snapshot(session, old.catalog_version_id),
                       "customer_country_changed", body["customer"],
                       valid_until=old.document["valid_until"], **values)
            except VatIdMismatch as exc:
                raise Invalid.at("/customer/vat_id", str(exc)) from None
            return quote
    if not values:
        # Nothing changes, so neither do the ETag and updated_at: another editor holding the
        # same ETag is not sent a 412 for a change that never happened.
        return quote
    bump(session, quote, **values)
    session.commit()
    session.refresh(quote)
    return quote


def reprice(session: Session, quote: Quote) -> Quote:
    """A new revision at the current catalog version; the old one stays as it was.

    A quote already priced at the current version has nothing to re-price: it is returned as
    it is, with no new revision and the same ETag.
    """
    if quote.status in FINAL:
        raise Conflict(f"The quote is {quote.status} and can no longer change", code="quote_closed")
    latest = now(session)
    if latest.version_id == current(session, quote).catalog_version_id:
        return quote
    try:
        revise(session, quote, latest, "repriced", quote.customer)
    except VatIdMismatch as exc:
        # The request sent no customer: the one the quote holds is what the rules refuse.
        raise Conflict(f"The quote's stored customer.vat_id ({quote.customer.get('vat_id')}) "
                       f"fails today's tax rules: {exc}. PATCH the quote's customer with a valid "
                       "VAT id first, then re-price", code="customer_vat_id_invalid") from None
    return quote


def revise(session: Session, quote: Quote, snap: Snapshot, reason: str,
           taxed_for: dict[str, Any], *, valid_until: str | None = None, **values) -> None:
    """Price the quote's configuration again into a new revision, with the change from the last.

    The same billed period, terms, performance and advice at `snap`'s prices, taxed for the
    customer `taxed_for` by the current catalog version's rules; `valid_until` keeps the
    validity of the revision it replaces, otherwise the new one is valid as many days as the
    old one was. Raises VatIdMismatch for the caller to answer.
    """
    old = current(session, quote)
    try:
        previous = from_document(QuoteDocument, old.document)
    except (KeyError, TypeError, ValueError):
        raise Conflict("This quote was stored by an earlier version of the service and cannot be "
                       "re-priced; create a new quote", code="quote_outdated") from None
    c = previous.configuration
    latest = now(session)
    document = qd.repriced(snap, previous, old.revision, old.catalog_version_id,
                           taxed_for.get("country"), taxed_for.get("vat_id"), date.today(),
                           stock=latest.stock_of(c.region, c.server.id),
                           tax_rules=latest.prices)
    if valid_until:
        document = replace(document, valid_until=valid_until)
    new_revision = quote.revision + 1
    bump(session, quote, revision=new_revision, **values)
    session.add(QuoteRevision(quote_id=quote.id, revision=new_revision,
                              catalog_version_id=snap.version_id, reason=reason,
                              document=to_document(document)))
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
