"""The warning of a committed term that does not match the run: billed well beyond the
training, or the training running past the term (at the model's point, or at its p90). Each alternative is priced by the one
pricing engine, for a sizing's configuration and for a quote of it alike."""

from __future__ import annotations

from catalog import pricing
from catalog.pricing import TERM_MONTHS, Configuration
from sizing import explain
from sizing.policy import SizingPolicy


def run_price(book: pricing.PriceBook, config: Configuration, term: str, currency: str,
              training_hours: float, support: str) -> str:
    """The run's total on `term`, billed by that term's rule, as a person reads it."""
    billing = pricing.billing_for(book, config, term=term, currency=currency,
                                  training_hours=training_hours, support=support)
    total = pricing.price(book, config, term=term, currency=currency, support=support,
                          billing=billing).total
    return f"{total:,} {currency}"


def longer_term(term: str) -> str | None:
    """The next term that commits to more months, if any."""
    longer = [t for t in TERM_MONTHS if TERM_MONTHS[t] > TERM_MONTHS[term]]
    return min(longer, key=TERM_MONTHS.get) if longer else None


def term_warning(book: pricing.PriceBook, policy: SizingPolicy, config: Configuration, *, term: str,
                 months_billed: int, training_hours: float, currency: str,
                 support: str = "none", p90_training_hours: float | None = None,
                 p90_total: float | None = None) -> str | None:
    """The warning, if the term calls for one, with the alternative term's price of the run;
    where the model's p90 of the time to train is given, also a run that may outlast the term."""
    if term == "monthly":
        return None
    term_hours = TERM_MONTHS[term] * book.hours_per_month
    if training_hours <= term_hours < (p90_training_hours or 0.0):
        return explain.term_overrun_risk(
            term, training_hours, p90_training_hours,
            None if p90_total is None else f"{p90_total:,.0f} {currency}")
    if training_hours > term_hours:
        longer = longer_term(term)
        return explain.term_overrun_warning(
            term, training_hours / term_hours, months_billed, training_hours, longer,
            run_price(book, config, longer, currency, training_hours, support)
            if longer else None)
    return explain.term_warning(term, months_billed, training_hours, book.hours_per_month,
                                policy.idle_term_warning_share,
                                run_price(book, config, "monthly", currency, training_hours,
                                          support))
