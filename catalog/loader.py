"""Loads the catalog files into a new catalog version, all or nothing."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from catalog import tables
from catalog.files import read_catalog


def content_hash(document: dict[str, Any]) -> str:
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def latest_version(session: Session) -> tables.CatalogVersion | None:
    return session.scalars(
        select(tables.CatalogVersion).order_by(tables.CatalogVersion.id.desc()).limit(1)
    ).first()


def load_files(session: Session, data_dir: Path, note: str = "") -> tuple[tables.CatalogVersion, bool]:
    """Validate every file, then write a new version; returns (version, created).

    A file that does not validate raises CatalogFileError before anything is written.
    Loading files identical to the latest version makes no new version.
    """
    document = read_catalog(Path(data_dir))
    digest = content_hash(document)
    latest = latest_version(session)
    if latest is not None and latest.content_sha256 == digest:
        return latest, False
    version = save_version(session, document, origin="files", note=note or f"loaded from {data_dir}")
    return version, True


def save_version(session: Session, document: dict[str, Any], *, origin: str, note: str) -> tables.CatalogVersion:
    """Write a whole catalog document as a new version and commit it in one transaction."""
    try:
        version = tables.CatalogVersion(
            origin=origin, note=note, content_sha256=content_hash(document),
            document=json.loads(json.dumps(document, default=str)),
        )
        session.add(version)
        session.flush()
        session.add_all(rows_of(version.id, document))
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return version


def rows_of(version_id: int, doc: dict[str, Any]) -> list[tables.Base]:
    v = version_id
    plain = json.loads(json.dumps(doc, default=str))
    rows: list[tables.Base] = []
    for g in plain["gpus"]:
        rows.append(tables.Gpu(version_id=v, id=g["id"], vendor=g["vendor"], data=g))
    for s in plain["servers"]:
        rows.append(tables.Server(version_id=v, id=s["id"], gpu_id=s["gpu"],
                                  gpus_per_node=s["gpus_per_node"], data=s))
    for f in plain["fabrics"]:
        rows.append(tables.Fabric(version_id=v, id=f["id"], kind=f["kind"], rdma=f["rdma"],
                                  line_rate_gbps=f["line_rate_gbps"], data=f))
    for r in plain["rdma"]:
        rows.append(tables.RdmaSupport(version_id=v, server_id=r["server"], fabric_id=r["fabric"],
                                       supported=r["supported"], gpudirect_rdma=r["gpudirect_rdma"],
                                       data=r))
    for region in plain["regions"]:
        rows.append(tables.Region(version_id=v, id=region["id"], country=region["country"],
                                  data=region))
    return rows
