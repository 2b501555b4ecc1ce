"""Sizing requests: a questionnaire in, ranked configurations out, scored by Celery workers."""

from __future__ import annotations

import re
import threading
import time

from flask import current_app, g, request, url_for
from flask.views import MethodView

from service import allowances, client_secrets, db, idempotency, sizings
from service.api.blueprint import Blueprint
from service.auth import current_principal, requires
from service.config import settings
from service.errors import Problem, field_problem
from service.estimates import catalog_snapshot
from service.records import FINAL_STATES, Sizing
from service.schemas import headers as h
from service.schemas import sizings as s
from service.sizing_request import SizingRequest

blp = Blueprint("sizings", __name__, url_prefix="/v1/sizings",
                description="Ranked configurations for a training workload, computed asynchronously")
# Built once: dumping keeps no state between requests.
REQUEST_SCHEMA = s.SizingRequestSchema()

WAIT = re.compile(r"(?:^|[,;\s])wait\s*=\s*([0-9]{1,9})", re.IGNORECASE)
POLL_S = 0.25


def requested_wait() -> int:
    """Seconds the client asked to wait (RFC 7240 `Prefer: wait=N`), capped at PREFER_WAIT_MAX_S."""
    match = WAIT.search(request.headers.get("Prefer", ""))
    return min(int(match.group(1)), settings().max_wait_s) if match else 0


def wait_for(sizing: Sizing, seconds: int) -> Sizing:
    """The sizing once final, or after `seconds`, if one of the process's wait slots is free.

    A waiting request holds a server thread: only PREFER_WAIT_SLOTS of them wait at once, so
    the process always has threads for health checks and every other request. Without a free
    slot the answer comes at once, as if no wait had been asked for.
    """
    slots = current_app.extensions["wait_slots"]
    if seconds <= 0 or not slots.acquire(blocking=False):
        return sizing
    try:
        g.wait_applied = seconds
        deadline = time.monotonic() + seconds
        session = db.session()
        while sizing.status not in FINAL_STATES and time.monotonic() < deadline:
            time.sleep(POLL_S)
            session.refresh(sizing)
    finally:
        slots.release()
    return sizing


def respond(sizing: Sizing, created: bool = False, replay: bool = False):
    """202 while the work is under way, 200 once final; Location always points at the record."""
    headers = {"Location": url_for("sizings.SizingById", sizing_id=sizing.id)}
    if replay:
        headers = idempotency.replayed(headers)
    waited = g.get("wait_applied", 0)
    if waited:
        headers["Preference-Applied"] = f"wait={waited}"
    if sizing.status not in FINAL_STATES or (created and not waited):
        # Without a wait, a new sizing is always 202 even if an in-process run finished.
        if sizing.status not in FINAL_STATES:
            headers["Retry-After"] = "1"
        return sizing, 202, headers
    return sizing, (201 if created else 200), headers


def init_waiting(app, config) -> None:
    app.extensions["wait_slots"] = threading.BoundedSemaphore(config.wait_slots)


def owned(sizing_id: str) -> Sizing:
    # Another account's id, or a wrong client secret, answers 404 like an id that does not exist.
    principal = current_principal()
    sizing = sizings.get(db.session(), sizing_id, principal, client_secrets.required(principal))
    if sizing is None:
        raise Problem(404, "not_found", f"No sizing {sizing_id}")
    return sizing


@blp.route("")
class Sizings(MethodView):
    @requires(blp, "sizings:write", too_many=(
        "The account (or its publishable keys) has as many sizings queued or running as its "
        "cap (code too_many_active_sizings), or"))
    @blp.arguments(s.SizingRequestSchema, example={
        "workload": {"preset": "llama-3-70b"}, "tokens": 1e12, "precision": "bf16",
        "nodes": {"min": 2, "max": 16}, "region": "us-east", "term": "1y", "currency": "USD",
        "objective": "balanced", "max_results": 5,
    })
    @blp.arguments(h.PreferHeaderSchema, location="headers")
    @blp.arguments(h.IdempotencyHeaderSchema, location="headers")
    @blp.response(202, s.SizingSchema, description="Accepted; poll Location until final")
    @blp.alt_response(201, schema=s.SizingSchema,
                      description="Finished within the time asked for by `Prefer: wait=N`")
    @blp.alt_response(409, description="A request with this Idempotency-Key is still being "
                                       "processed; retry after Retry-After")
    @blp.alt_response(422, description=(
        "Invalid or impossible questionnaire; a search larger than the key's allowance (code "
        "search_too_large, naming the allowance); or a reused Idempotency-Key with another "
        "request. Names the field."))
    @blp.doc(operationId="createSizing", summary="Submit a workload questionnaire", description=(
        "Before it is queued, a sizing's search size (server and fabric pairs x node counts x "
        "the parallel layouts whose degrees divide each GPU count) is checked against the "
        "key's allowance, and the account's sizings "
        "queued or running at once against its caps (429 too_many_active_sizings with "
        "Retry-After past them). `Prefer: wait=N` waits at most PREFER_WAIT_MAX_S, and only "
        "while the server has a wait slot free; Preference-Applied says when it waited. The "
        "values are in the Limits table of the API's description."))
    def post(self, body, _prefer, headers):
        session = db.session()
        principal = current_principal()
        with idempotency.guarded(session, principal, headers.get("idempotency_key"), body,
                                 settings().idempotency_key_ttl_s) as held:
            # Asked before the work: completing the claim makes it look like a replay after it.
            replay = bool(held and held.replay)
            if replay:
                sizing, secret = session.get(Sizing, held.row.resource_id), held.row.client_secret
            else:
                # The record is written in this session's transaction: begun here, the
                # catalog version is read on its connection too (current_snapshot).
                session.connection()
                snap = catalog_snapshot(session, None)
                document = REQUEST_SCHEMA.dump(body)
                asked = SizingRequest.from_document(document)
                problems = asked.problems(snap)
                if problems:
                    raise Problem(422, "impossible_request",
                                  "; ".join(f"{p}: {d}" for p, d in problems),
                                  errors=[{"pointer": p, "detail": d} for p, d in problems])
                allowances.check_search_size(snap, asked, principal, settings())
                sizing, secret, record = sizings.stage(session, document, principal, held,
                                                       snap.version_id)
                allowances.hold_active_slot(session, principal, settings(), record)
                sizings.commit_and_send(session, sizing)
        sizing = wait_for(sizing, requested_wait())
        # Shown in this answer (and its Idempotency-Key's replays) only; the record keeps a digest.
        sizing.client_secret = secret
        return respond(sizing, created=True, replay=replay)

    @requires(blp, "sizings:read")
    @blp.arguments(s.SizingQuerySchema, location="query", unknown="raise", as_kwargs=True)
    @blp.response(200, s.SizingPageSchema)
    @blp.doc(operationId="listSizings",
             summary="The account's sizings, newest first, by cursor (secret keys only)",
             description="Every sizing of the account, including those the page's publishable "
                         "key made (`origin: page`). A publishable key lists nothing.")
    def get(self, limit, cursor=None, status=None, origin=None):
        try:
            rows, next_cursor = sizings.page(db.session(), current_principal(), limit=limit,
                                             cursor=cursor, status=status, origin=origin)
        except ValueError:
            raise field_problem("/query/cursor", "not a cursor from this API") from None
        return {"items": rows, "next_cursor": next_cursor}


@blp.route("/<uuid:sizing_id>")
class SizingById(MethodView):
    @requires(blp, "sizings:read", "sizings:write")
    @blp.arguments(h.PreferHeaderSchema, location="headers")
    @blp.arguments(h.ClientSecretHeaderSchema, location="headers")
    @blp.response(200, s.SizingSchema, description="Final: succeeded, failed or cancelled")
    @blp.alt_response(202, schema=s.SizingSchema, description="Queued or running")
    @blp.alt_response(404, description="No such sizing (or not yours)")
    @blp.doc(operationId="getSizing", summary="A sizing's state, progress and result")
    def get(self, _headers, _secret, sizing_id):
        return respond(wait_for(owned(str(sizing_id)), requested_wait()))


@blp.route("/<uuid:sizing_id>/cancel")
class SizingCancel(MethodView):
    @requires(blp, "sizings:write")
    @blp.arguments(h.ClientSecretHeaderSchema, location="headers")
    @blp.response(200, s.SizingSchema)
    @blp.alt_response(404, description="No such sizing (or not yours)")
    @blp.alt_response(409, description="Already finished")
    @blp.doc(operationId="cancelSizing", summary="Cancel a queued or running sizing")
    def post(self, _secret, sizing_id):
        sizing = owned(str(sizing_id))
        if sizing.status in FINAL_STATES:
            raise Problem(409, "already_finished", f"The sizing already {sizing.status}")
        return sizings.cancel(db.session(), sizing)
