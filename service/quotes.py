"""Quotes: a configuration priced on the server, frozen at a catalog version, with revisions."""

from __future__ import annotations

import hashlib
import json
from datetime import date, datetime
from typing import Any

from sqlalchemy import and_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from catalog import queries
from catalog.snapshot import Snapshot, snapshot
from catalog.tables import utcnow
from service import quote_document as qd
from service import sizings
from service.accounts import Principal
from service.errors import Problem
from service.failures import Conflict, Forbidden, Invalid, NotFound
from service.pagination import newest_first
from service.quote_document import FromSizing, QuoteDocument, Terms
from service.records import IdempotencyKey, Quote, QuoteCounter, QuoteRevision
from service.sizing_result import NetworkAdvice, RankedConfiguration, WorkloadSummary
from service.typed import from_document, to_document

TRANSITIONS = {"draft": {"sent", "expired"}, "sent": {"accepted", "expired"}}
FINAL = ("accepted", "expired")


# ------------------------------------------------------------------------------ creation

def resolve(session: Session, snap: Snapshot, principal: Principal, body: dict[str, Any],
            today: date) -> tuple[QuoteDocument, str | None]:
    """The first revision's document, and the sizing it came from."""
    customer = body.get("customer") or {}
    if "sizing_id" in body:
        sizing = sizings.get(session, body["sizing_id"], principal)
        if sizing is None:
            raise NotFound(f"No sizing {body['sizing_id']}")
        if sizing.status != "succeeded":
            raise Invalid.at("/sizing_id", f"the sizing is {sizing.status}; quote a succeeded "
                             "sizing", "sizing_not_ready")
        result = sizing.result
        configs = result["configurations"]
        rank = body.get("rank", 1)
        if not 1 <= rank <= len(configs):
            raise Invalid.at("/rank", f"the sizing has {len(configs)} ranked configurations")
        try:
            ranked = from_document(RankedConfiguration, configs[rank - 1])
            from_sizing = FromSizing(ranked, from_document(WorkloadSummary, result["workload"]),
                                     from_document(NetworkAdvice | None, result["network_advice"]),
                                     sizing.catalog_version_id)
        except (KeyError, TypeError, ValueError):
            # A result stored before its shape was what the pricing engine now needs.
            raise Invalid.at("/sizing_id", "this sizing was stored by an earlier version of the "
                             "service and cannot be quoted; submit the questionnaire again",
                             "sizing_outdated") from None
        config = qd.configuration_of(snap, ranked.server.id, ranked.fabric.id, ranked.nodes,
                                     ranked.region, ranked.oversubscription, "/sizing_id")
        term, currency, sizing_id = ranked.price.term, ranked.price.currency, sizing.id
    else:
        if principal.publishable:
            raise Forbidden("A publishable key can only request quotes from its own sizings")
        c = body["configuration"]
        config = qd.configuration_of(snap, c["server"], c["fabric"], c["nodes"], c["region"],
                                     c.get("oversubscription"))
        from_sizing, term, currency, sizing_id = None, "monthly", "USD", None
    terms = Terms(term=body.get("term") or term, currency=body.get("currency") or currency,
                  support=body["support"], valid_days=body["valid_days"],
                  country=customer.get("country"), vat_id=customer.get("vat_id"))
    billing = qd.billing_of(snap, config, terms, from_sizing)
    return qd.revision(snap, config, terms, billing, today, from_sizing), sizing_id


def next_number(session: Session, year: int) -> str:
    """The next number of the year, unique under concurrency: the counter row is locked by the
    increment until the creating transaction ends."""
    insert = postgresql.insert if session.bind.dialect.name == "postgresql" else sqlite.insert
    session.execute(insert(QuoteCounter).values(year=year, last=0).on_conflict_do_nothing())
    last = session.execute(update(QuoteCounter).where(QuoteCounter.year == year)
                           .values(last=QuoteCounter.last + 1).returning(QuoteCounter.last)).scalar_one()
    return f"Q-{year}-{last:06d}"


def request_digest(body: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()


def replay(session: Session, principal: Principal, key: str, body: dict[str, Any]) -> IdempotencyKey | None:
    """The stored first response for this key, or None; another body with the key is refused."""
    stored = session.get(IdempotencyKey, (principal.account_id, key))
    if stored is None:
        return None
    if stored.request_sha256 != request_digest(body):
        raise Problem(422, "idempotency_key_reused",
                      "This Idempotency-Key was used with a different request body",
                      errors=[{"pointer": "/headers/Idempotency-Key",
                               "detail": "already used with another body"}])
    return stored


def create(session: Session, principal: Principal, body: dict[str, Any],
           idempotency_key: str | None, render) -> tuple[dict[str, Any], Quote]:
    """Create a quote (or replay the first response for a repeated Idempotency-Key)."""
    if idempotency_key and (stored := replay(session, principal, idempotency_key, body)):
        return stored.response, session.get(Quote, stored.resource_id)
    snap = snapshot(session, queries.resolve_version(session).id)
    document, sizing_id = resolve(session, snap, principal, body, date.today())
    quote = Quote(account_id=principal.account_id, api_key_id=principal.key_id,
                  number=next_number(session, utcnow().year), customer=body.get("customer") or {},
                  sizing_id=sizing_id)
    session.add(quote)
    session.flush()
    session.add(QuoteRevision(quote_id=quote.id, revision=1, catalog_version_id=snap.version_id,
                              reason="created", document=to_document(document)))
    session.flush()
    response = render(quote)
    if idempotency_key:
        session.add(IdempotencyKey(account_id=principal.account_id, key=idempotency_key,
                                   request_sha256=request_digest(body), status_code=201,
                                   resource_id=quote.id, response=response))
    try:
        session.commit()
    except IntegrityError:
        # A concurrent retry with the same key won: answer as it did, with its quote.
        session.rollback()
        if idempotency_key and (stored := replay(session, principal, idempotency_key, body)):
            return stored.response, session.get(Quote, stored.resource_id)
        raise
    return response, quote


# ------------------------------------------------------------------------------ reading and changes

def visible_to(principal: Principal):
    condition = Quote.account_id == principal.account_id
    if principal.publishable:
        condition = and_(condition, Quote.api_key_id == principal.key_id)
    return condition


def get(session: Session, quote_id: str, principal: Principal) -> Quote:
    quote = session.scalars(select(Quote).where(Quote.id == quote_id, visible_to(principal))).first()
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
    bump(session, quote, **values)
    session.commit()
    session.refresh(quote)
    return quote


def reprice(session: Session, quote: Quote) -> Quote:
    """A new revision at the current catalog version; the old one stays as it was."""
    if quote.status in FINAL:
        raise Problem(409, "quote_closed", f"The quote is {quote.status} and can no longer change")
    old = current(session, quote)
    snap = snapshot(session, queries.resolve_version(session).id)
    try:
        previous = from_document(QuoteDocument, old.document)
    except (KeyError, TypeError, ValueError):
        raise Conflict("This quote was stored by an earlier version of the service and cannot be "
                       "re-priced; create a new quote", code="quote_outdated") from None
    document = qd.repriced(snap, previous, old.revision,
                           old.catalog_version_id, quote.customer.get("country"),
                           quote.customer.get("vat_id"), date.today())
    new_revision = quote.revision + 1
    bump(session, quote, revision=new_revision)
    session.add(QuoteRevision(quote_id=quote.id, revision=new_revision,
                              catalog_version_id=snap.version_id, reason="repriced",
                              document=to_document(document)))
    session.commit()
    session.refresh(quote)
    return quote


def page(session: Session, principal: Principal, *, limit: int, cursor: str | None,
         status: str | None, created_from: datetime | None, created_to: datetime | None):
    query = select(Quote).where(visible_to(principal))
    if status:
        query = query.where(Quote.status == status)
    if created_from:
        query = query.where(Quote.created_at >= created_from)
    if created_to:
        query = query.where(Quote.created_at < created_to)
    return newest_first(session, query, Quote, limit=limit, cursor=cursor)


def view(session: Session, quote: Quote) -> dict[str, Any]:
    """The quote as the API shows it: its current revision in full, earlier ones in summary."""
    revs = revisions(session, quote)
    doc = next(r.document for r in revs if r.revision == quote.revision)
    return {
        "id": quote.id, "number": quote.number, "status": quote.status, "revision": quote.revision,
        "customer": quote.customer, "sizing_id": quote.sizing_id,
        "created_at": quote.created_at, "updated_at": quote.updated_at,
        **doc,
        "revisions": [{"revision": r.revision, "catalog_version": r.catalog_version_id,
                       "reason": r.reason, "created_at": r.created_at,
                       "grand_total": r.document["totals"]["grand_total"]} for r in revs],
    }
