"""What one sizing may cost, checked before it is queued: its search size, and how many of an
account's sizings may be queued or running at once."""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, insert, select
from sqlalchemy.orm import Session

from catalog.snapshot import Snapshot
from service.accounts import Principal
from service.config import Config
from service.errors import Problem
from service.records import Account, Sizing
from service.sizing_request import SizingRequest

# A sizing of the allowed size finishes in seconds; a client past the cap retries after this.
ACTIVE_RETRY_AFTER_S = 5
# Built once: constructing these statements cost more of a submission than running them.
# The columns sizings.stage gives (result and error stay NULL), as parameters of their own
# name, so none can be taken for another statement's.
_WRITTEN = tuple(c.name for c in Sizing.__table__.columns if c.name not in ("result", "error"))
_INSERT = insert(Sizing).values({
    name: bindparam(f"new_{name}", type_=Sizing.__table__.c[name].type) for name in _WRITTEN})
# The account's active sizings, and those its publishable keys made, as the triggers on
# sizings keep them (migration 0009): two integers, however many sizings the account has.
_ACTIVE_COUNTS = (select(Account.active_sizings, Account.active_sizings_from_page)
                  .where(Account.id == bindparam("account_id")))


def search_allowance(principal: Principal, config: Config) -> int:
    return (config.search_candidates_publishable_key if principal.publishable
            else config.search_candidates_secret_key)


def check_search_size(snap: Snapshot, request: SizingRequest, principal: Principal,
                      config: Config) -> int:
    """The candidates the request would enumerate; a 422 past the key's allowance."""
    size = request.search_size(snap)
    allowance = search_allowance(principal, config)
    if size > allowance:
        # Counted again only to say so: the offer's pairs are most of this check's cost.
        hardware, node_counts = request.hardware_pairs(snap), len(request.node_counts)
        kind = "publishable" if principal.publishable else "secret"
        detail = (f"this questionnaire searches {size:,} candidates ({hardware} server and "
                  f"fabric pairs x {node_counts} node counts x the layouts whose degrees divide "
                  f"each GPU count), more than the {allowance:,} a {kind} key may: narrow the "
                  "node range, or choose gpu_models or fabrics_include")
        raise Problem(422, "search_too_large", f"The search is too large: {detail}",
                      errors=[{"pointer": "/nodes", "detail": detail}])
    return size


def hold_active_slot(session: Session, principal: Principal, config: Config,
                     record: dict[str, Any]) -> None:
    """Write the record (sizings.stage's columns), which locks the account's row, and refuse
    (429) it past the account's caps, counting it; else hold its place until the caller's
    commit, which follows at once."""
    # The insert's trigger adds the record to its account's counts, which locks the account's
    # row (the whole file under SQLite) until the commit, so concurrent requests of one
    # account are counted one after another. The counts are read in a statement of their own,
    # after that lock: a statement's snapshot is taken before it waits for a lock, but this one
    # starts after it and sees what the lock's last holder committed, and the record itself.
    # On the session's connection: the ORM's statement path would look for loaded objects to
    # update, and there are none to care about here.
    connection = session.connection()
    connection.execute(_INSERT, {f"new_{name}": record[name] for name in _WRITTEN})
    active, from_page = connection.execute(
        _ACTIVE_COUNTS, {"account_id": principal.account_id}).one()
    caps = [(active, config.active_sizings_per_account, "the account")]
    if principal.publishable:
        caps.append((from_page, config.active_sizings_from_publishable_keys,
                     "the account's publishable keys"))
    for count, cap, whose in caps:
        if count > cap:
            session.rollback()
            raise Problem(429, "too_many_active_sizings",
                          f"{cap} sizings of {whose} are queued or running, the most at once; "
                          "retry when one has finished",
                          headers={"Retry-After": str(ACTIVE_RETRY_AFTER_S)})
