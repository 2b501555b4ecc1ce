"""p10-p90 of a run's total: the pricing engine's price of a run as long as each end of the
time to train's interval, for a sizing's configuration and for a quote of it alike."""

from __future__ import annotations

from catalog import pricing
from catalog.pricing import Configuration
from service.sizing_result import Interval
from service.typed import significant_bounds


def total_range(book: pricing.PriceBook, config: Configuration, hours: Interval, *, term: str,
                currency: str, support: str = "none") -> Interval:
    """Each end of `hours` billed by the term's rule (a committed term bills at least its
    months, so a short run's range is its price) and priced with `support`, as a quote prices
    its total; rounded outward, so the shown range holds the total it is the range of."""
    ends = []
    for training_hours in (hours.p10, hours.p90):
        # The rule weighs the rates without support, as the billing of the total itself does.
        billing = pricing.billing_for(book, config, term=term, currency=currency,
                                      training_hours=training_hours)
        ends.append(pricing.price(book, config, term=term, currency=currency, support=support,
                                  billing=billing).total)
    return Interval(*significant_bounds(*ends))
