"""Read access to one catalog version: lists with filters, and single entries."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, bindparam, select
from sqlalchemy.orm import Session

from catalog import tables


class CatalogNotLoaded(LookupError):
    """No catalog version exists yet."""


class UnknownVersion(LookupError):
    """The asked-for catalog version does not exist."""


# Built once: constructing a statement costs about as much as SQLite running it.
_VERSION = select(tables.CatalogVersion.id, tables.CatalogVersion.content_sha256)
_LATEST = _VERSION.order_by(tables.CatalogVersion.id.desc()).limit(1)
_BY_ID = _VERSION.where(tables.CatalogVersion.id == bindparam("version_id"))


def version_key(source: Session | Connection, version_id: int | None = None) -> tuple[int, str]:
    """The id and content hash of a version, or of the latest: one small query, no document,
    on the connection given, or the session's.

    A session with no transaction yet (a request that only reads: an estimate, the catalog's
    endpoints) is not begun for this query: it runs on a pooled connection of its own,
    returned at once, which skips the session's transaction (0.068 -> 0.055 ms of CPU on
    SQLite, `bench/request_profile.py`'s catalog version read). A session already in a
    transaction lends its connection, so a request that writes next (a sizing, which begins
    its transaction before) checks out one connection, not two. Either way the query is a
    statement of its own, run now, so it sees every version committed before it. On
    PostgreSQL that pooled connection reads in autocommit: in a transaction the driver would
    send BEGIN before the query and the pool ROLLBACK after it, two round trips of three."""
    if isinstance(source, Session):
        if source.in_transaction():
            return version_key(source.connection(), version_id)
        with source.get_bind().connect() as connection:
            if connection.dialect.name == "postgresql":
                connection.execution_options(isolation_level="AUTOCOMMIT")
            return version_key(connection, version_id)
    # On a connection: two columns need none of the ORM's statement path.
    if version_id is None:
        found = source.execute(_LATEST).first()
        if found is None:
            raise CatalogNotLoaded()
    else:
        found = source.execute(_BY_ID, {"version_id": version_id}).first()
        if found is None:
            raise UnknownVersion(version_id)
    return found[0], found[1]


def resolve_version(session: Session, version_id: int | None = None) -> tables.CatalogVersion:
    if version_id is not None:
        version = session.get(tables.CatalogVersion, version_id)
        if version is None:
            raise UnknownVersion(version_id)
        return version
    version = session.scalars(
        select(tables.CatalogVersion).order_by(tables.CatalogVersion.id.desc()).limit(1)
    ).first()
    if version is None:
        raise CatalogNotLoaded()
    return version


def list_versions(session: Session) -> list[tables.CatalogVersion]:
    return list(session.scalars(select(tables.CatalogVersion).order_by(tables.CatalogVersion.id)))


def gpus(session: Session, version_id: int, vendor: str | None = None) -> list[dict[str, Any]]:
    query = select(tables.Gpu).where(tables.Gpu.version_id == version_id)
    if vendor:
        query = query.where(tables.Gpu.vendor == vendor)
    return [row.data for row in session.scalars(query.order_by(tables.Gpu.id))]


def servers(session: Session, version_id: int, gpu: str | None = None,
            min_gpus: int | None = None) -> list[dict[str, Any]]:
    query = select(tables.Server).where(tables.Server.version_id == version_id)
    if gpu:
        query = query.where(tables.Server.gpu_id == gpu)
    if min_gpus:
        query = query.where(tables.Server.gpus_per_node >= min_gpus)
    return [row.data for row in session.scalars(query.order_by(tables.Server.id))]


def fabrics(session: Session, version_id: int, kind: str | None = None,
            rdma: bool | None = None) -> list[dict[str, Any]]:
    query = select(tables.Fabric).where(tables.Fabric.version_id == version_id)
    if kind:
        query = query.where(tables.Fabric.kind == kind)
    if rdma is not None:
        query = query.where(tables.Fabric.rdma == rdma)
    return [row.data for row in session.scalars(query.order_by(tables.Fabric.line_rate_gbps, tables.Fabric.id))]


def rdma_support(session: Session, version_id: int, server: str | None = None,
                 fabric: str | None = None, supported: bool | None = None) -> list[dict[str, Any]]:
    query = select(tables.RdmaSupport).where(tables.RdmaSupport.version_id == version_id)
    if server:
        query = query.where(tables.RdmaSupport.server_id == server)
    if fabric:
        query = query.where(tables.RdmaSupport.fabric_id == fabric)
    if supported is not None:
        query = query.where(tables.RdmaSupport.supported == supported)
    rows = session.scalars(query.order_by(tables.RdmaSupport.server_id, tables.RdmaSupport.fabric_id))
    gpu_of = {s["id"]: s["gpu"] for s in servers(session, version_id)}
    nvls = {g["id"]: bool(g.get("nvlink_sharp", False)) for g in gpus(session, version_id)}
    sharp = {f["id"]: bool(f.get("sharp", False)) for f in fabrics(session, version_id)}
    return [{**row.data, **collective_support(row.data, nvls[gpu_of[row.data["server"]]],
                                              sharp[row.data["fabric"]])} for row in rows]


def collective_support(entry: dict[str, Any], nvlink_sharp: bool, fabric_sharp: bool) -> dict:
    """Which of NCCL's in-switch algorithms a supported pair can run.

    NVLS needs the GPU's NVSwitch to reduce (NVLink SHARP); CollNet needs RDMA to switches
    that reduce in the network (SHARP). Across nodes NCCL runs NVLS only together with CollNet.
    """
    supported = bool(entry["supported"])
    collnet = supported and bool(entry["rdma"]) and fabric_sharp
    return {"nvls": supported and nvlink_sharp, "collnet": collnet,
            "nvls_across_nodes": supported and nvlink_sharp and collnet}


def regions(session: Session, version_id: int, server: str | None = None) -> list[dict[str, Any]]:
    rows = session.scalars(
        select(tables.Region).where(tables.Region.version_id == version_id).order_by(tables.Region.id)
    )
    out = []
    for row in rows:
        region = dict(row.data)
        if server:
            region["stock"] = [s for s in region.get("stock", []) if s["server"] == server]
        out.append(region)
    return out


def entry(entries: list[dict[str, Any]], entry_id: str) -> dict[str, Any] | None:
    return next((e for e in entries if e["id"] == entry_id), None)
