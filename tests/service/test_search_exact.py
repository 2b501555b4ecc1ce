"""The streamed search (chunks, validity and memory ruled out before the time model) gives the
exhaustive search's answer: the same typed result, field for field, on several questionnaires."""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest

from service.schemas.sizings import SizingRequestSchema
from service.sizing_request import SizingRequest
from service.sizing_run import search
from service.sizing_shown import shown_result

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
    assert result == shown_result(exhaustive, today)


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
