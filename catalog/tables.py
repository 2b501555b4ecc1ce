"""SQLAlchemy tables of the catalog; every load or change is a new version."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, ForeignKey, Integer, String, types
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class UTCDateTime(types.TypeDecorator):
    """Timestamps stored naive in UTC and always returned timezone-aware."""

    impl = types.DateTime
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value, dialect):
        return None if value is None else value.replace(tzinfo=UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict] = {dict[str, Any]: JSON, list[Any]: JSON, datetime: UTCDateTime}


class CatalogVersion(Base):
    __tablename__ = "catalog_versions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    origin: Mapped[str] = mapped_column(String(40))  # "files" or "api"
    note: Mapped[str] = mapped_column(String(500), default="")
    content_sha256: Mapped[str] = mapped_column(String(64))
    # The whole validated catalog as read: pricing terms, currencies and model constants
    # are read from here, so an old version stays complete and readable. Deferred: it is
    # large, and most reads of a version only need its id.
    document: Mapped[dict[str, Any]] = mapped_column(deferred=True)


def version_fk() -> Mapped[int]:
    return mapped_column(ForeignKey("catalog_versions.id", ondelete="CASCADE"), primary_key=True)


class Gpu(Base):
    __tablename__ = "catalog_gpus"

    version_id: Mapped[int] = version_fk()
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    vendor: Mapped[str] = mapped_column(String(40))
    data: Mapped[dict[str, Any]]


class Server(Base):
    __tablename__ = "catalog_servers"

    version_id: Mapped[int] = version_fk()
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    gpu_id: Mapped[str] = mapped_column(String(64))
    gpus_per_node: Mapped[int]
    data: Mapped[dict[str, Any]]


class Fabric(Base):
    __tablename__ = "catalog_fabrics"

    version_id: Mapped[int] = version_fk()
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    rdma: Mapped[bool]
    line_rate_gbps: Mapped[float]
    data: Mapped[dict[str, Any]]


class RdmaSupport(Base):
    __tablename__ = "catalog_rdma_support"

    version_id: Mapped[int] = version_fk()
    server_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    fabric_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    supported: Mapped[bool]
    gpudirect_rdma: Mapped[bool]
    data: Mapped[dict[str, Any]]


class Region(Base):
    __tablename__ = "catalog_regions"

    version_id: Mapped[int] = version_fk()
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    country: Mapped[str] = mapped_column(String(2))
    data: Mapped[dict[str, Any]]
