"""A catalog version's listings, read from the database once per process: a version never
changes (a change to the catalog is a new version), so what it lists for one filter is fixed."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from catalog import queries


@dataclass(frozen=True)
class Version:
    """A catalog version as one database holds it: the hash tells a reloaded database apart."""

    database: str
    id: int
    content_sha256: str


def version(session: Session, version_id: int | None = None) -> Version:
    """The asked-for version, or the latest: one small query each call, so a new version is
    seen by the next request (raises queries.CatalogNotLoaded or queries.UnknownVersion)."""
    found_id, digest = queries.version_key(session, version_id)
    return Version(str(session.get_bind().url), found_id, digest)


class Listings:
    """Listings by (version, query, filters). Filters come from the client, so the entries are
    bounded: when full, it starts again (each listing is one query to read back)."""

    MAX_ENTRIES = 512

    def __init__(self) -> None:
        self._entries: dict[tuple, list[dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def get(self, session: Session, of: Version, query: Callable[..., list[dict[str, Any]]],
            *filters: Any) -> list[dict[str, Any]]:
        key = (of, query.__qualname__, filters)
        with self._lock:
            found = self._entries.get(key)
        if found is not None:
            return found
        # Shared by every request that asks the same: the views only read the entries.
        listed = query(session, of.id, *filters)
        with self._lock:
            if len(self._entries) >= self.MAX_ENTRIES:
                self._entries.clear()
            self._entries[key] = listed
        return listed


LISTINGS = Listings()
