"""p10-p90 of a run's total: the pricing engine's price of a run as long as each end of the
time to train's interval, for a sizing's configuration and for a quote of it alike."""

from __future__ import annotations

from catalog import pricing
from catalog.pricing import Configuration
from service.sizing_result import Interval
from service.typed import significant_bounds


def total_range(book: pricing.PriceBook, config: Configuration, hours: Interval, *, term: str,
                currency: str, support: str = "none",
                rates: pricing.Price | None = None) -> Interval:
    """Each end of `hours` billed by the term's rule (a committed term bills at least its
    months, so a short run's range is its price) and priced with `support`, as a quote prices
    its total; rounded outward, so the shown range holds the total it is the range of.
    `rates`: `config` priced without support on `term` in `currency`, whatever its billing
    (its monthly and hourly net do not depend on it), when the caller has it."""
    # The rule weighs the rates without support, as the billing of the total itself does
    # (pricing.billing_for): the same rates for both ends.
    if rates is None:
        rates = pricing.price(book, config, term=term, currency=currency,
                              billing=pricing.Billing.for_term(term))
    ends = [pricing.price(book, config, term=term, currency=currency, support=support,
                          billing=pricing.billing_at(rates, training_hours)).total
            for training_hours in (hours.p10, hours.p90)]
    return Interval(*significant_bounds(*ends))
