"""A catalog version's listings, read from the database once per process: a version never
changes (a change to the catalog is a new version), so what it lists for one filter is fixed,
and so is its answer (the dumped body and its ETag, `service.api.catalog`)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from catalog import queries

T = TypeVar("T")


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


class BuiltOnce:
    """Values by a key that names a version, built once. Filters come from the client, so the
    entries are bounded: when full, it starts again (each value is built again on its next
    request)."""

    MAX_ENTRIES = 512

    def __init__(self) -> None:
        self._entries: dict[Hashable, Any] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        with self._lock:
            found = self._entries.get(key)
        if found is not None:
            return found
        # Shared by every request that asks the same: the callers only read the values.
        built = build()
        with self._lock:
            if len(self._entries) >= self.MAX_ENTRIES:
                self._entries.clear()
            self._entries[key] = built
        return built


class Listings:
    """Each query's whole listing by version, each one query to read."""

    def __init__(self) -> None:
        self._built = BuiltOnce()

    def get(self, session: Session, of: Version,
            query: Callable[..., list[dict[str, Any]]]) -> list[dict[str, Any]]:
        return self._built.get((of, query.__qualname__), lambda: query(session, of.id))


LISTINGS = Listings()
