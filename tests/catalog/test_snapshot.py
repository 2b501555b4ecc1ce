"""A catalog version stored before a model constant or a policy figure existed still builds."""
from __future__ import annotations

import copy
import gc
import json

from catalog.files import read_catalog
from catalog.shipped import DATA_DIR
from catalog.snapshot import build


def stored_document() -> dict:
    # As the database keeps it: JSON.
    return json.loads(json.dumps(read_catalog(DATA_DIR), default=str))


def test_a_version_stored_before_a_constant_builds_with_the_shipped_figure():
    shipped = build(1, stored_document())
    older = stored_document()
    model, policy = older["model"].get("constants", older["model"]), older["policy"]
    policy = policy.get("constants", policy)
    # The files of an earlier build: the go-back-N window in packets, no packet size, no host
    # reserve, and a figure of its own that the shipped files give otherwise.
    for name in ("go_back_n_window_us", "roce_packet_bytes"):
        del model[name]
    model["go_back_n_window_packets"] = {"value": 1000, "source": "estimate: older build"}
    del policy["host_memory_reserve_share"]
    model["nccl_ring_plateau_factor"] = {"value": 1.9, "source": "older build"}
    snap = build(2, copy.deepcopy(older))
    assert snap.constants.go_back_n_window_us == shipped.constants.go_back_n_window_us
    assert snap.constants.roce_packet_bytes == shipped.constants.roce_packet_bytes
    assert snap.constants.host_memory_reserve_share == shipped.constants.host_memory_reserve_share
    # What the version does state stays its own.
    assert snap.constants.nccl_ring_plateau_factor == 1.9 != shipped.constants.nccl_ring_plateau_factor


def test_a_built_version_is_moved_out_of_the_cycle_collectors_generations(catalog_app,
                                                                          monkeypatch):
    """A version's snapshot lives as long as the process: once built, what is alive is frozen
    (gc.freeze), so that full collections no longer walk its objects."""
    import catalog.snapshot as snapshots
    from service import db

    monkeypatch.setattr(snapshots, "_cache", {})  # as a new process: the version not built yet
    frozen = gc.get_freeze_count()
    with catalog_app.app_context():
        snap = snapshots.current_snapshot(db.session())
    assert snap.servers
    assert gc.get_freeze_count() > frozen + len(snap.servers)
