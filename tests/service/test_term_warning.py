"""A run longer than its committed term is warned of, with the longer term's price of it."""
from __future__ import annotations

from datetime import date

from catalog import pricing
from service.sizing_run import search
from service.sizing_shown import shown_result
from service.term_warning import term_warning
from tests.service.test_search_exact import request_of

# 405B on 15T tokens takes years: a 1y term bills month after month past its commitment.
LONG_405B = {"workload": {"preset": "llama-3-405b"}, "tokens": 15e12,
             "nodes": {"min": 16, "max": 128}, "term": "1y", "currency": "EUR"}


def test_a_run_spanning_several_terms_is_warned_with_the_longer_terms_price(snap):
    found = search(snap, request_of(LONG_405B), lambda _f: None)
    first = shown_result(found, date(2026, 12, 1)).configurations[0]
    book, price = snap.prices, first.price
    terms = price.training_hours / (12 * book.hours_per_month)
    assert terms > 2 and price.months_billed > 24  # the case this test is about
    config = found.config(found.ranked.order[0])
    three_years = pricing.price(book, config, term="3y", currency="EUR", billing=pricing.billing_for(
        book, config, term="3y", currency="EUR", training_hours=price.training_hours)).total
    assert price.warning is not None
    assert (f"spans {terms:.1f} terms of 1y, billed as {price.months_billed} months at the 1y "
            f"rate; a 3y term prices it at {three_years:,} EUR.") in price.warning, price.warning


def test_past_the_longest_term_no_alternative_is_offered(snap):
    found = search(snap, request_of({**LONG_405B, "term": "3y"}), lambda _f: None)
    config = found.config(found.ranked.order[0])
    hours = 40 * snap.prices.hours_per_month
    said = term_warning(snap.prices, snap.policy, config, term="3y", months_billed=40,
                        training_hours=hours, currency="EUR")
    assert said is not None and "spans 1.1 terms of 3y, billed as 40 months" in said, said
    assert "prices it at" not in said and "after the training ends" not in said, said


def test_a_run_inside_its_term_whose_p90_runs_past_it_is_warned(snap):
    """The README's sample: rank 1 takes 357.7 days of a 1y term, but its p90 is past it."""
    found = search(snap, request_of(LONG_405B), lambda _f: None)
    config = found.config(found.ranked.order[0])
    year = 12 * snap.prices.hours_per_month
    said = term_warning(snap.prices, snap.policy, config, term="1y", months_billed=12,
                        training_hours=0.98 * year, currency="EUR", p90_training_hours=1.2 * year,
                        p90_total=1_234_567.0)
    assert said is not None and "within the 1y term, but the model's p90 is" in said, said
    assert "past the term" in said and "1,234,567 EUR in all at that end" in said, said
    inside = term_warning(snap.prices, snap.policy, config, term="1y", months_billed=12,
                          training_hours=0.98 * year, currency="EUR",
                          p90_training_hours=0.99 * year)
    assert inside is None


def test_the_shown_price_warns_from_the_time_to_trains_p90(snap):
    request = request_of({"workload": {"preset": "llama-3-70b"}, "tokens": 2e12,
                          "nodes": {"min": 8, "max": 32}, "term": "1y", "currency": "EUR"})
    result = shown_result(search(snap, request, lambda _f: None), date(2026, 12, 1))
    first = result.configurations[0]
    year = 12 * snap.prices.hours_per_month
    assert first.time_to_train_hours <= year < first.intervals["time_to_train_hours"].p90
    assert first.price.warning is not None and "model's p90" in first.price.warning
