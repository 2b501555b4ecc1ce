"""Changes to prices and stock made through the API, each saved as a new catalog version."""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import Any

from sqlalchemy.orm import Session

from catalog import tables
from catalog.loader import save_version
from catalog.queries import resolve_version


class ChangeError(ValueError):
    """A change that names something the catalog does not have; `pointer` says where."""

    def __init__(self, pointer: str, detail: str):
        super().__init__(f"{pointer}: {detail}")
        self.pointer = pointer
        self.detail = detail


def apply_changes(session: Session, changes: dict[str, Any], note: str) -> tables.CatalogVersion:
    """Copy the current version, apply the price and stock changes, save as a new version."""
    current = resolve_version(session)
    document = copy.deepcopy(current.document)
    prices = {(p["server"], p["region"]): p for p in document["prices"]["servers"]}
    for i, change in enumerate(changes.get("server_prices", [])):
        entry = prices.get((change["server"], change["region"]))
        if entry is None:
            raise ChangeError(f"/server_prices/{i}", f"{change['server']} has no price in {change['region']}")
        for field in ("hourly_usd", "monthly_usd", "setup_fee_usd"):
            if field in change:
                entry[field] = str(change[field])
                entry.setdefault("sources", {})[field] = f"catalog:admin change: {note}"
        hourly, monthly = Decimal(entry["hourly_usd"]), Decimal(entry["monthly_usd"])
        if monthly > hourly * int(document["prices"]["hours_per_month"]):
            raise ChangeError(f"/server_prices/{i}/monthly_usd",
                              "a committed month cannot cost more than the month at the hourly rate")
    regions = {r["id"]: r for r in document["regions"]}
    for i, change in enumerate(changes.get("stock", [])):
        region = regions.get(change["region"])
        if region is None:
            raise ChangeError(f"/stock/{i}/region", f"no region {change['region']!r}")
        item = next((s for s in region["stock"] if s["server"] == change["server"]), None)
        if item is None:
            raise ChangeError(f"/stock/{i}/server", f"{change['server']} is not stocked in {change['region']}")
        for field in ("available_nodes", "arriving_nodes", "lead_time_days"):
            if field in change:
                item[field] = change[field]
    return save_version(session, document, origin="api", note=note)
