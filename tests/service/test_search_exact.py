"""The streamed search (chunks, validity and memory ruled out before the time model, compute
bounds against each cell's best) gives the exhaustive search's answer: the same typed result,
field for field, on several questionnaires. Every one ranks by goodput (the wall clock with
failures) and weighs hot spares; some pin a layout with a hybrid-sharding group, some pass one
leaf so that oversubscribed spines are ranked."""

from __future__ import annotations

import dataclasses
from datetime import date

import numpy as np
import pytest

from catalog.offer import sellable_pairs
from service import sizing_run
from service.schemas.sizings import SizingRequestSchema
from service.sizing_request import SizingRequest
from service.sizing_run import search
from service.sizing_shown import Nothing, shown_result

QUESTIONNAIRES = {
    "70B by tokens, every server and fabric": {"workload": {"preset": "llama-3-70b"},
                                               "tokens": 1e12, "nodes": {"min": 1, "max": 24},
                                               "max_lead_time_days": 365},
    "8B cheapest, monthly budget": {"workload": {"preset": "llama-3-8b"}, "tokens": 5e10,
                                    "nodes": {"min": 1, "max": 16}, "objective": "cheapest",
                                    "budget_per_month": "150000", "currency": "EUR",
                                    "region": "eu-central"},
    "mixtral for a duration, balanced": {"workload": {"preset": "mixtral-8x7b"},
                                         "duration_days": 10, "nodes": {"min": 2, "max": 12},
                                         "objective": "balanced", "term": "1y"},
    "405B with a deadline": {"workload": {"preset": "llama-3-405b"}, "tokens": 1e12,
                             "duration_days": 200, "nodes": {"min": 16, "max": 64},
                             "objective": "fastest", "max_lead_time_days": 365},
    "resnet-50 epochs": {"workload": {"preset": "resnet-50"}, "epochs": 90,
                         "nodes": {"min": 1, "max": 8}},
    "70B within a total budget, 3y": {"workload": {"preset": "llama-3-70b"}, "tokens": 5e11,
                                      "nodes": {"min": 2, "max": 20}, "budget_total": "3000000",
                                      "term": "3y", "objective": "cheapest",
                                      "max_lead_time_days": 365},
    "8B in FP8, layout pinned": {"workload": {"preset": "llama-3-8b"}, "tokens": 1e11,
                                 "precision": "fp8", "nodes": {"min": 1, "max": 32},
                                 "layout": {"tp": 2, "zero_stage": 1}},
    # Every field of a pinned layout through the search, and the data-parallel sizes a
    # hybrid-sharding group of 8 divides.
    "8B pinned HSDP": {"workload": {"preset": "llama-3-8b"}, "tokens": 1e11,
                       "nodes": {"min": 1, "max": 32},
                       "layout": {"framework": "fsdp", "zero_stage": 3, "shard_group": 8,
                                  "offload": "optimizer", "recompute": "full",
                                  "recompute_layers": 4}},
    # Where the communication's floor leaves out most of what compute alone would time: a
    # mixture of experts (its all-to-all and gradients on the network), and pipelines of a
    # model too large for tensor parallelism alone.
    "mixtral by tokens, every server and fabric": {"workload": {"preset": "mixtral-8x7b"},
                                                   "tokens": 1e12, "nodes": {"min": 1, "max": 6},
                                                   "max_lead_time_days": 365},
    "405B fastest, every server and fabric": {"workload": {"preset": "llama-3-405b"},
                                              "tokens": 1e12, "nodes": {"min": 8, "max": 20},
                                              "objective": "fastest",
                                              "max_lead_time_days": 365},
    # Beyond one leaf: each fabric's oversubscribed spines are ranked beside the 1:1 fabric.
    # The monthly budget rules out cells whose 1:1 spine costs more than their oversubscribed
    # one: their fastest layout must still be found (and timed) for the variants.
    "70B cheapest past one leaf": {"workload": {"preset": "llama-3-70b"}, "tokens": 2e12,
                                   "nodes": {"min": 24, "max": 72}, "objective": "cheapest",
                                   "max_lead_time_days": 365, "budget_per_month": "400000"},
}
# What each questionnaire must exercise for its equality to mean something.
EXERCISES = {
    "8B pinned HSDP": lambda found: (set(found.cands.layout["shard_group"].tolist()) == {8}
                                     and not (found.cands.layout["dp"] % 8).any()),
    "70B cheapest past one leaf": lambda found: any(
        found.clusters[int(h)].fabric.oversubscription > 1 for h in found.cands.hardware),
}


CHUNK = 1000


def request_of(body: dict) -> SizingRequest:
    schema = SizingRequestSchema()
    return SizingRequest.from_document(schema.dump(schema.load(body)))


@pytest.mark.parametrize("name", QUESTIONNAIRES)
def test_the_streamed_search_answers_as_the_exhaustive_one(snap, name):
    request = request_of(QUESTIONNAIRES[name])
    # Small chunks, so that every questionnaire spans many of them.
    small = dataclasses.replace(snap, policy=dataclasses.replace(
        snap.policy, max_candidates_per_pass=CHUNK))
    today = date(2026, 12, 1)
    streamed = search(small, request, lambda _f: None)
    exhaustive = search(small, request, lambda _f: None, exhaustive=True)
    result = shown_result(streamed, today)
    assert result.candidates_evaluated > CHUNK * 2  # several chunks
    assert result.configurations, name
    assert EXERCISES.get(name, lambda _found: True)(streamed), name
    assert result == shown_result(exhaustive, today)


def test_hot_spares_a_deadline_needs_are_kept_alike_streamed_and_exhaustive(snap):
    """Goodput ranks by the wall clock with failures; with a deadline between the wall clocks
    without and with hot spares, only the spares meet it, and both searches keep them."""
    body = {"workload": {"preset": "llama-3-405b"}, "tokens": 5e11,
            "nodes": {"min": 60, "max": 64}, "gpu_models": ["h100-sxm"],
            "fabrics_include": ["ib-ndr-400"], "max_results": 3}
    today = date(2026, 12, 1)
    free = shown_result(search(snap, request_of(body), lambda _f: None), today).configurations[0]
    assert free.hot_spare_nodes == 0
    days = (free.goodput.hot_spares.time_to_train_hours + free.time_to_train_hours) / 2 / 24
    request = request_of({**body, "duration_days": days})
    small = dataclasses.replace(snap, policy=dataclasses.replace(
        snap.policy, max_candidates_per_pass=CHUNK))
    streamed = shown_result(search(small, request, lambda _f: None), today)
    assert streamed.configurations[0].hot_spare_nodes > 0
    assert streamed == shown_result(search(small, request, lambda _f: None, exhaustive=True),
                                    today)


@pytest.mark.parametrize("name", ["mixtral by tokens, every server and fabric",
                                  "405B fastest, every server and fabric",
                                  "70B by tokens, every server and fabric"])
def test_the_communication_floor_leaves_out_rows_compute_alone_would_time(snap, monkeypatch,
                                                                         name):
    """The second bound (sizing.step.step_floor_batch) rules out rows the compute-only bound
    leaves in, and the answer is the one without it."""
    request = request_of(QUESTIONNAIRES[name])
    small = dataclasses.replace(snap, policy=dataclasses.replace(
        snap.policy, max_candidates_per_pass=CHUNK))
    today = date(2026, 12, 1)
    floored = search(small, request, lambda _f: None)
    # The compute-only bound in the floor's place (which reads its compute from it).
    monkeypatch.setattr(sizing_run, "throughput_floor",
                        lambda *rows_of_a_chunk, bound: sizing_run.throughput_bound(
                            *rows_of_a_chunk))
    compute_only = search(small, request, lambda _f: None)
    # How many it rules out depends on the grid: 405B's share fell from 40% to 8% when the
    # grid stopped trying Megatron-FSDP with pipeline stages, whose exposed gathers the floor
    # priced, and so it is no fixed margin.
    assert floored.tally.timed < compute_only.tally.timed, name
    assert shown_result(floored, today) == shown_result(compute_only, today)


def test_the_time_model_runs_on_a_small_share_of_a_wide_search(snap):
    """What the pruning buys: 70B on every server and fabric at 1-24 nodes."""
    request = request_of(QUESTIONNAIRES["70B by tokens, every server and fabric"])
    streamed = search(snap, request, lambda _f: None)
    exhaustive = search(snap, request, lambda _f: None, exhaustive=True)
    assert exhaustive.tally.timed == exhaustive.tally.evaluated
    # Invalid, too large for memory or out of stock: never timed; and some eligible candidates
    # are left out by their compute bound alone.
    assert streamed.tally.timed < 0.35 * streamed.tally.evaluated
    assert streamed.tally.timed < streamed.tally.eligible


@pytest.mark.parametrize("exhaustive", [False, True])
def test_nothing_in_stock_past_one_leaf_is_an_answer_not_a_crash(snap, exhaustive):
    """With no node in stock no cell is kept, not even for the oversubscribed variants a range
    past one leaf asks for: the search says why nothing could be sold."""
    empty = dataclasses.replace(snap, stock={})
    found = search(empty, request_of(QUESTIONNAIRES["70B cheapest past one leaf"]),
                   lambda _f: None, exhaustive=exhaustive)
    assert isinstance(found, Nothing)
    assert found.excluded.get("stock", 0) > 0


def test_the_offer_s_hardware_is_kept_per_snapshot_pairs_and_leaves_passed(snap):
    """A search on the snapshot and pairs of one before reads the hardware that one built;
    one past more leaves, or on another snapshot, builds its own; and what is kept is what
    a build gives."""
    request = request_of(QUESTIONNAIRES["70B by tokens, every server and fabric"])
    pairs = tuple(sellable_pairs(snap, request.hardware, request.region).pairs)
    leaves = sorted({snap.fabrics[f].nodes_below_spine for _, f in pairs})
    below, past = leaves[0], leaves[-1] + 1  # within every leaf, past every one
    kept = sizing_run._offer_hardware(snap, pairs, below)
    assert sizing_run._offer_hardware(snap, pairs, below) is kept
    assert kept[1].pairs == ()
    wide = sizing_run._offer_hardware(snap, pairs, past)
    assert wide is not kept and len(wide[1].pairs) > 0
    other = dataclasses.replace(snap)
    rebuilt = sizing_run._offer_hardware(other, pairs, below)
    assert rebuilt is not kept
    assert rebuilt[0] == kept[0] and rebuilt[1] == kept[1]
    assert rebuilt[2].columns.keys() == kept[2].columns.keys()
    for key, column in kept[2].columns.items():
        np.testing.assert_array_equal(rebuilt[2].columns[key], column, err_msg=key)
