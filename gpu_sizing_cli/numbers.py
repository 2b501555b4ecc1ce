"""Numbers as a person reads them: significant digits, thousands separators, units, money."""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation

import click
from gpu_sizing_client.models import Interval

# nccl-tests reads sizes in powers of 1024 (-b 8M is 8,388,608 bytes); so does --size.
SIZE_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?(?:[eE][0-9]+)?)\s*([KMGT]?)(?:i?B)?\s*", re.IGNORECASE)


# What the API's scaling_efficiency is, said where it is shown: a share of the step, not a
# ratio against one node (that is efficiency_vs_one_node).
SCALING_EFFICIENCY_WORDS = ("efficiency is the share of each step spent on GPU work (compute with "
                            "any recomputation, and the optimizer step), not throughput against "
                            "one node")


def figure(value: float | None, digits: int = 4) -> str:
    """67090.0 -> 67,090; 8.189 -> 8.189; 0.003082 -> 0.003082."""
    if value is None:
        return "-"
    if abs(value) >= 10 ** (digits - 1):
        return f"{round(value):,}"
    return f"{value:.{digits}g}"


def rounded(value: float, digits: int = 3) -> float:
    """To `digits` significant digits: the p10 and p90 of a range need no more."""
    return float(f"{value:.{digits}g}")


def interval(answer, name: str) -> Interval | None:
    """The model's p10-p90 of one of an answer's figures (its `intervals`), if it gives one."""
    return answer.intervals.additional_properties.get(name)


def end(found: Interval | None, which: str) -> float | None:
    """p10 or p90 of an interval, None without one (an empty CSV cell)."""
    return None if found is None else getattr(found, which)


def figure_range(p10: float, p90: float) -> str:
    """The model's p10-p90 of a figure: 42,500-73,410 -> 42,500–73,400."""
    return f"{figure(rounded(p10))}–{figure(rounded(p90))}"


def percent(share: float | None, decimals: int = 1) -> str:
    return "-" if share is None else f"{share * 100:.{decimals}f}%"


def percent_range(p10: float, p90: float) -> str:
    return f"{p10 * 100:.0f}–{p90 * 100:.0f}%"


def signed_percent(share: float) -> str:
    return f"{share * 100:+.1f}%"


def money(amount: str | None, currency: str | None = None) -> str:
    """A decimal string as the API gives it, grouped: "939620.16" -> "939,620.16 EUR"."""
    if amount is None:
        return "-"
    try:
        grouped = f"{Decimal(amount):,}"
    except InvalidOperation:
        grouped = amount
    return f"{grouped} {currency}" if currency else grouped


def _short(hours: float) -> tuple[str, float]:
    """The unit of a time under an hour, and its length in hours: a tenth of an hour would
    write a run of seconds as 0.0 h."""
    return ("s", 1 / 3600) if hours < 1 / 60 else ("min", 1 / 60)


def _two_figures(value: float) -> str:
    return "0" if value <= 0 else f"{value:.{max(0, 1 - math.floor(math.log10(value)))}f}"


def duration(hours: float | None) -> str:
    if hours is None:
        return "-"
    if hours < 1:
        unit, size = _short(hours)
        return f"{_two_figures(hours / size)} {unit}"
    if hours < 48:
        return f"{hours:.1f} h"
    days = hours / 24
    return f"{days:.1f} days" if days < 10 else f"{round(days):,} days"


def duration_range(p10_hours: float, p90_hours: float) -> str:
    """A p10-p90 of time in one unit, the one the longer end reads in: 318–549 days."""
    if p90_hours < 1:
        unit, size = _short(p90_hours)
        return f"{_two_figures(p10_hours / size)}–{_two_figures(p90_hours / size)} {unit}"
    if p90_hours < 48:
        return f"{p10_hours:.1f}–{p90_hours:.1f} h"
    low, high = p10_hours / 24, p90_hours / 24
    if high < 10:
        return f"{low:.1f}–{high:.1f} days"
    return f"{figure(rounded(low))}–{figure(rounded(high))} days"


def microseconds(seconds: float) -> str:
    """As nccl-tests prints a time: fewer decimals as it grows."""
    us = seconds * 1e6
    return f"{us:.0f}" if us >= 10_000 else f"{us:.1f}" if us >= 100 else f"{us:.2f}"


def bytes_size(text: str) -> int:
    match = SIZE.fullmatch(text)
    if not match:
        raise click.BadParameter(f"{text!r} is not a size; e.g. 8388608, 8M, 1G")
    # Decimal, not float: 1.5K is exactly 1536 bytes, and 1.5 is no whole number of bytes to
    # round down to a size the user did not ask for.
    size = Decimal(match.group(1)) * SIZE_UNITS[match.group(2).upper()]
    if size != size.to_integral_value():
        raise click.BadParameter(f"{text!r} is {size} bytes, not a whole number; e.g. 2, 1.5K")
    return int(size)


class ByteSize(click.ParamType):
    """A --size-like option read by bytes_size, so click names the option when it is refused."""

    name = "SIZE"

    def convert(self, value, param, ctx):
        return value if isinstance(value, int) else bytes_size(value)


class FiniteFloat(click.ParamType):
    """A number option that refuses nan and inf: click's float takes them, and JSON has no
    such numbers, so they would fail on the way to the API instead of naming the flag."""

    name = "FLOAT"

    def convert(self, value, param, ctx):
        number = value if isinstance(value, float) else click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


FINITE = FiniteFloat()


def scientific(value: float | None) -> str:
    """Amounts of work: 2e12 tokens reads as 2.0e12, 1000 samples as 1,000."""
    if value is None:
        return "-"
    return figure(value) if value < 1e6 else f"{value:.2e}".replace("e+", "e")
