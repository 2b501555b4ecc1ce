"""The hot-spare what-if of a sizing: offered only from stock, judged by the objective."""
from __future__ import annotations

import math
from datetime import date

import pytest

from service.sizing_run import search
from service.sizing_shown import shown_result, spare_choice
from sizing.explain import before_and_after, time_saved
from tests.service.test_search_exact import request_of

TODAY = date(2026, 12, 1)
FASTEST_70B = {"workload": {"preset": "llama-3-70b"}, "tokens": 2e12,
               "gpu_models": ["h100-sxm"], "max_lead_time_days": 0, "objective": "fastest"}


def sized(snap, body):
    result = shown_result(search(snap, request_of(body), lambda _f: None), TODAY)
    note = next(n for n in result.notes if n.startswith("Hot spares for rank 1"))
    return result.configurations[0], note


def test_no_spare_is_offered_beyond_the_stock(snap):
    """Rank 1 takes every H100 node in stock: no spare node is left to offer or price."""
    first, note = sized(snap, {**FASTEST_70B, "nodes": {"min": 32, "max": 128}})
    stock = snap.stock_of("us-east", "hgx-h100-8").usable(0)
    assert first.server.id == "hgx-h100-8" and first.nodes == stock
    spares = first.goodput.hot_spares
    assert not spares.offered and spares.spare_nodes == 0
    assert spares.not_offered_reason.startswith("none can be offered, no stock")
    assert note == f"Hot spares for rank 1: {spares.not_offered_reason}"
    assert f"{stock} of the {stock} nodes" in note
    # What cannot apply is the configuration's own: no spare, nothing added to its price.
    assert spares.total == first.price.total and spares.difference == spares.extra_monthly == 0
    assert spares.goodput == first.goodput.goodput
    assert spares.time_to_train_hours == first.price.training_hours
    # the rule that sets the number asked for, and what the stock has left
    share = snap.reliability.hot_spare_share
    asked = max(math.ceil(stock * share), 1)
    assert (f"leaving 0; the policy keeps {share:.0%} of a job's nodes as spares, rounded up and at "
            f"least one (catalog reliability.yaml hot_spare_share), so {asked} spare nodes, "
            f"which would need {stock + asked}.") in note, note


@pytest.mark.parametrize("objective, words", [
    ("fastest", "better the time to train by"),
    ("cheapest", "they cost more than the time they save")])
def test_the_verdict_is_the_objectives(snap, objective, words):
    """Spares that fit in stock and save hours: under fastest the verdict weighs the time
    they save against the policy's tolerance, never their cost; under cheapest their cost."""
    first, note = sized(snap, {**FASTEST_70B, "nodes": {"min": 32, "max": 56},
                               "objective": objective})
    spares = first.goodput.hot_spares
    assert first.hot_spare_nodes == 0 and spares.offered and spares.not_offered_reason is None
    assert first.nodes + spares.spare_nodes <= snap.stock_of("us-east", "hgx-h100-8").usable(0)
    assert words in note
    if objective == "fastest":
        gain = first.time_to_train_hours / spares.time_to_train_hours - 1
        assert f"by {gain:.2%}, within the policy's 5% tolerance" in note
        assert "cost more" not in note


def test_the_note_rounds_the_times_only_to_write_them(snap):
    """70B on 8-32 nodes, cheapest: 66,314.86 h rounded to 66,310 h read 2,762.9 days and a
    saving of 30 hours; the note writes the unrounded times, as the network advice does."""
    body = {"workload": {"preset": "llama-3-70b"}, "tokens": 15e12,
            "nodes": {"min": 8, "max": 32}, "objective": "cheapest"}
    found = search(snap, request_of(body), lambda _f: None)
    note = next(n for n in shown_result(found, TODAY).notes if n.startswith("Hot spares"))
    hours = spare_choice(found, found.ranked.order[0]).hours
    before, after = before_and_after(*hours)
    assert f"by {time_saved(hours[0] - hours[1])} ({before} to {after})" in note, note
    assert before == f"{hours[0] / 24:,.1f} days"
