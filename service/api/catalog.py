"""Read endpoints of the catalog: GPUs, servers, fabrics, the RDMA matrix, regions."""

from __future__ import annotations

import marshmallow as ma
from flask import Response, current_app
from flask.views import MethodView

from catalog import queries
from catalog.changes import ChangeError, apply_changes
from catalog.tables import CatalogVersion
from service import catalog_listings, db, idempotency
from service.api.blueprint import Blueprint, Dumped
from service.auth import current_principal, requires
from service.config import settings
from service.errors import Problem, field_problem
from service.schemas import catalog as s
from service.schemas import headers as h

blp = Blueprint("catalog", __name__, url_prefix="/v1/catalog",
                description="The provider's GPUs, servers, fabrics, RDMA support and regions")


# One instance each, for the response decorator (the API's documentation) and for the answers
# dumped once (`answered`).
GPUS, GPU = s.GpuSchema(many=True), s.GpuSchema()
SERVERS, SERVER = s.ServerSchema(many=True), s.ServerSchema()
FABRICS, FABRIC = s.FabricSchema(many=True), s.FabricSchema()
RDMA_SUPPORT = s.RdmaSupportSchema(many=True)
REGIONS, REGION = s.RegionSchema(many=True), s.RegionSchema()

read = requires(blp, "catalog:read", "catalog:admin")
no_version = blp.alt_response(404, description="No catalog version of that number")
no_entry = blp.alt_response(404, description="No such entry in that catalog version, or no such version")


def query_args(schema):
    # Unknown query parameters are refused, so a typo never silently widens a filter.
    return blp.arguments(schema, location="query", unknown=ma.RAISE, as_kwargs=True)


def version_of(version: int | None) -> catalog_listings.Version:
    try:
        return catalog_listings.version(db.session(), version)
    except queries.CatalogNotLoaded:
        raise Problem(503, "catalog_not_loaded", "No catalog is loaded yet; run `flask catalog load`")
    except queries.UnknownVersion:
        raise Problem(404, "catalog_version_not_found", f"Catalog version {version} does not exist",
                      errors=[{"pointer": "/query/version", "detail": "no such version"}])


def listed(query, of: catalog_listings.Version):
    """All that `query` lists of that version, read once per process (for the filters'
    names and the entries by id)."""
    return catalog_listings.LISTINGS.get(db.session(), of, query)


@blp.record_once
def _answers(state) -> None:
    state.app.extensions["catalog_answers"] = catalog_listings.BuiltOnce()


def answered(schema: ma.Schema, key: tuple, build) -> Response:
    """The answer of a read of one version, dumped once per app: a version never changes, so
    neither does its body or its ETag. `key` names the version and what is read of it."""
    answers = current_app.extensions["catalog_answers"]
    return blp.answer(answers.get(key, lambda: Dumped.of(schema, build())))


def listing(schema: ma.Schema, of: catalog_listings.Version, query, *filters) -> Response:
    # Read for its answer alone: once dumped, the entries are not needed again.
    return answered(schema, (of, query.__qualname__, filters),
                    lambda: query(db.session(), of.id, *filters))


def entry_of(schema: ma.Schema, of: catalog_listings.Version, query, entry_id: str,
             what: str) -> Response:
    # An id the version does not have is a 404, raised each time and never kept.
    return answered(schema, (of, query.__qualname__, "entry", entry_id),
                    lambda: one(listed(query, of), entry_id, what))


def known(of: catalog_listings.Version, query, parameter: str, value: str | None, what: str,
          key: str = "id") -> None:
    """A filter naming what the version does not have is a 422 naming the parameter: an empty
    list would read as "none match" when the name is wrong."""
    if value is None:
        return
    names = sorted({entry[key] for entry in listed(query, of)})
    if value not in names:
        raise field_problem(f"/query/{parameter}", f"no {what} {value!r} in catalog version "
                                                   f"{of.id}; one of: {', '.join(names)}")


def one(entries, entry_id: str, what: str):
    found = queries.entry(entries, entry_id)
    if found is None:
        raise Problem(404, "not_found", f"No {what} with id {entry_id!r}")
    return found


@blp.route("/versions")
class Versions(MethodView):
    @read
    @blp.etag
    @blp.response(200, s.CatalogVersionSchema(many=True))
    @blp.doc(operationId="listCatalogVersions", summary="Catalog versions, oldest first")
    def get(self):
        return queries.list_versions(db.session())


@blp.route("/gpus")
class Gpus(MethodView):
    @read
    @blp.etag
    @query_args(s.GpuQuery)
    @no_version
    @blp.response(200, GPUS)
    @blp.doc(operationId="listGpus", summary="GPUs, with sourced specifications")
    def get(self, version=None, vendor=None):
        of = version_of(version)
        known(of, queries.gpus, "vendor", vendor, "GPU vendor", key="vendor")
        return listing(GPUS, of, queries.gpus, vendor)


@blp.route("/gpus/<gpu_id>")
class GpuById(MethodView):
    @read
    @blp.etag
    @query_args(s.VersionQuery)
    @no_entry
    @blp.response(200, GPU)
    @blp.doc(operationId="getGpu", summary="One GPU")
    def get(self, gpu_id, version=None):
        return entry_of(GPU, version_of(version), queries.gpus, gpu_id, "GPU")


@blp.route("/servers")
class Servers(MethodView):
    @read
    @blp.etag
    @query_args(s.ServerQuery)
    @no_version
    @blp.response(200, SERVERS)
    @blp.doc(operationId="listServers", summary="Server SKUs")
    def get(self, version=None, gpu=None, min_gpus=None):
        of = version_of(version)
        known(of, queries.gpus, "gpu", gpu, "GPU")
        return listing(SERVERS, of, queries.servers, gpu, min_gpus)


@blp.route("/servers/<server_id>")
class ServerById(MethodView):
    @read
    @blp.etag
    @query_args(s.VersionQuery)
    @no_entry
    @blp.response(200, SERVER)
    @blp.doc(operationId="getServer", summary="One server SKU")
    def get(self, server_id, version=None):
        return entry_of(SERVER, version_of(version), queries.servers, server_id, "server")


@blp.route("/fabrics")
class Fabrics(MethodView):
    @read
    @blp.etag
    @query_args(s.FabricQuery)
    @no_version
    @blp.response(200, FABRICS)
    @blp.doc(operationId="listFabrics", summary="Network fabric SKUs")
    def get(self, version=None, kind=None, rdma=None):
        return listing(FABRICS, version_of(version), queries.fabrics, kind, rdma)


@blp.route("/fabrics/<fabric_id>")
class FabricById(MethodView):
    @read
    @blp.etag
    @query_args(s.VersionQuery)
    @no_entry
    @blp.response(200, FABRIC)
    @blp.doc(operationId="getFabric", summary="One fabric SKU")
    def get(self, fabric_id, version=None):
        return entry_of(FABRIC, version_of(version), queries.fabrics, fabric_id, "fabric")


@blp.route("/rdma-support")
class RdmaMatrix(MethodView):
    @read
    @blp.etag
    @query_args(s.RdmaQuery)
    @no_version
    @blp.response(200, RDMA_SUPPORT)
    @blp.doc(operationId="listRdmaSupport",
             summary="Which server works with which fabric, with or without GPUDirect RDMA, and why")
    def get(self, version=None, server=None, fabric=None, supported=None):
        of = version_of(version)
        known(of, queries.servers, "server", server, "server")
        known(of, queries.fabrics, "fabric", fabric, "fabric")
        return listing(RDMA_SUPPORT, of, queries.rdma_support, server, fabric, supported)


@blp.route("/regions")
class Regions(MethodView):
    @read
    @blp.etag
    @query_args(s.RegionQuery)
    @no_version
    @blp.response(200, REGIONS)
    @blp.doc(operationId="listRegions", summary="Regions with stock and lead times")
    def get(self, version=None, server=None):
        of = version_of(version)
        known(of, queries.servers, "server", server, "server")
        return listing(REGIONS, of, queries.regions, server)


@blp.route("/regions/<region_id>")
class RegionById(MethodView):
    @read
    @blp.etag
    @query_args(s.VersionQuery)
    @no_entry
    @blp.response(200, REGION)
    @blp.doc(operationId="getRegion", summary="One region with its stock")
    def get(self, region_id, version=None):
        return entry_of(REGION, version_of(version), queries.regions, region_id, "region")


@blp.route("/changes")
class CatalogChanges(MethodView):
    @requires(blp, "catalog:admin")
    @blp.arguments(s.CatalogChangeSchema, example={
        "note": "Spring prices for H100 in us-east",
        "server_prices": [{"server": "hgx-h100-8", "region": "us-east", "monthly_usd": "14990.00"}],
        "stock": [{"region": "us-east", "server": "hgx-h100-8", "available_nodes": 48}],
    })
    @blp.arguments(h.IdempotencyHeaderSchema, location="headers")
    @blp.response(201, s.CatalogVersionSchema, description="The new catalog version")
    @blp.alt_response(409, description="A request with this Idempotency-Key is still being "
                                       "processed; retry after Retry-After")
    @blp.alt_response(422, description="A change names a price or stock entry that does not "
                                       "exist, or a reused Idempotency-Key with another request")
    @blp.doc(operationId="changeCatalog",
             summary="Change prices or stock; saved as a new catalog version, old ones stay")
    def post(self, body, headers):
        session = db.session()
        with idempotency.guarded(session, current_principal(), headers.get("idempotency_key"),
                                 body, settings().idempotency_key_ttl_s) as held:
            if held and held.replay:
                return session.get(CatalogVersion, int(held.row.resource_id)), 201, \
                    idempotency.replayed({})
            try:
                version = apply_changes(session, body, body["note"])
            except ChangeError as exc:
                raise field_problem(exc.pointer, exc.detail) from None
            if held:
                # The version is committed by the catalog; the key follows in a second step.
                held.complete(str(version.id), 201, None)
                session.commit()
        return version
