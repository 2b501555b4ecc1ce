from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.sizing_price_billed_by import SizingPriceBilledBy
from typing import cast






T = TypeVar("T", bound="SizingPrice")



@_attrs_define
class SizingPrice:
    """ 
        Attributes:
            billed_by (SizingPriceBilledBy): Whole months at the term's rate, or hours on demand (monthly term, when
                cheaper)
            cost_per_million_samples (None | str): total / samples trained x 1e6 (sample-based models)
            cost_per_million_tokens (None | str): total / tokens trained x 1e6 (transformers)
            currency (str):
            hourly (str): Net per hour on demand
            hours_billed (int): On-demand hours, per started hour; 0 by the month
            monthly (str): Net per month at the term's rate, after its discount
            months_billed (int): 0 when billed by the hour
            one_time (str):
            price_per_gpu_hour (str): Net price of one GPU-hour at the rate billed (servers, fabric, term discount)
            term (str):
            total (str): What the training costs before tax: the billed months or hours plus one-time fees; a quote of this
                configuration has this net total
            training_hours (float | None): The wall clock this price bills, unrounded (time_to_train_hours is rounded to 4
                significant digits): a quote at another term bills it again
            warning (None | str): When the committed term does not match the work: it bills much longer than the training
                (with the monthly term's price of the run), or the training runs past it (with the next longer term's price of
                the run, where there is one)
     """

    billed_by: SizingPriceBilledBy
    cost_per_million_samples: None | str
    cost_per_million_tokens: None | str
    currency: str
    hourly: str
    hours_billed: int
    monthly: str
    months_billed: int
    one_time: str
    price_per_gpu_hour: str
    term: str
    total: str
    training_hours: float | None
    warning: None | str





    def to_dict(self) -> dict[str, Any]:
        billed_by = self.billed_by.value

        cost_per_million_samples: None | str
        cost_per_million_samples = self.cost_per_million_samples

        cost_per_million_tokens: None | str
        cost_per_million_tokens = self.cost_per_million_tokens

        currency = self.currency

        hourly = self.hourly

        hours_billed = self.hours_billed

        monthly = self.monthly

        months_billed = self.months_billed

        one_time = self.one_time

        price_per_gpu_hour = self.price_per_gpu_hour

        term = self.term

        total = self.total

        training_hours: float | None
        training_hours = self.training_hours

        warning: None | str
        warning = self.warning


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "billed_by": billed_by,
            "cost_per_million_samples": cost_per_million_samples,
            "cost_per_million_tokens": cost_per_million_tokens,
            "currency": currency,
            "hourly": hourly,
            "hours_billed": hours_billed,
            "monthly": monthly,
            "months_billed": months_billed,
            "one_time": one_time,
            "price_per_gpu_hour": price_per_gpu_hour,
            "term": term,
            "total": total,
            "training_hours": training_hours,
            "warning": warning,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        billed_by = SizingPriceBilledBy(d.pop("billed_by"))




        def _parse_cost_per_million_samples(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        cost_per_million_samples = _parse_cost_per_million_samples(d.pop("cost_per_million_samples"))


        def _parse_cost_per_million_tokens(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        cost_per_million_tokens = _parse_cost_per_million_tokens(d.pop("cost_per_million_tokens"))


        currency = d.pop("currency")

        hourly = d.pop("hourly")

        hours_billed = d.pop("hours_billed")

        monthly = d.pop("monthly")

        months_billed = d.pop("months_billed")

        one_time = d.pop("one_time")

        price_per_gpu_hour = d.pop("price_per_gpu_hour")

        term = d.pop("term")

        total = d.pop("total")

        def _parse_training_hours(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        training_hours = _parse_training_hours(d.pop("training_hours"))


        def _parse_warning(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        warning = _parse_warning(d.pop("warning"))


        sizing_price = cls(
            billed_by=billed_by,
            cost_per_million_samples=cost_per_million_samples,
            cost_per_million_tokens=cost_per_million_tokens,
            currency=currency,
            hourly=hourly,
            hours_billed=hours_billed,
            monthly=monthly,
            months_billed=months_billed,
            one_time=one_time,
            price_per_gpu_hour=price_per_gpu_hour,
            term=term,
            total=total,
            training_hours=training_hours,
            warning=warning,
        )

        return sizing_price

