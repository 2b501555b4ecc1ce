from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="QuoteTotals")



@_attrs_define
class QuoteTotals:
    """ 
        Attributes:
            grand_total (str):
            hours_billed (int): On-demand hours billed; 0 when billed by the month
            monthly_discount (str):
            monthly_list (str): The term's monthly rate, list
            monthly_net (str):
            months_billed (int): Months the monthly lines bill; 0 when billed by the hour
            one_time (str):
            recurring (str): The billed months or hours
            tax (str):
            tax_label (str): The tax line as printed, e.g. "VAT 19% (DE)"
            tax_rate (None | str):
            term_months (int): Months the term commits to
            term_net (str): Net before tax: recurring + one_time; for a sizing's configuration, its total
     """

    grand_total: str
    hours_billed: int
    monthly_discount: str
    monthly_list: str
    monthly_net: str
    months_billed: int
    one_time: str
    recurring: str
    tax: str
    tax_label: str
    tax_rate: None | str
    term_months: int
    term_net: str





    def to_dict(self) -> dict[str, Any]:
        grand_total = self.grand_total

        hours_billed = self.hours_billed

        monthly_discount = self.monthly_discount

        monthly_list = self.monthly_list

        monthly_net = self.monthly_net

        months_billed = self.months_billed

        one_time = self.one_time

        recurring = self.recurring

        tax = self.tax

        tax_label = self.tax_label

        tax_rate: None | str
        tax_rate = self.tax_rate

        term_months = self.term_months

        term_net = self.term_net


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "grand_total": grand_total,
            "hours_billed": hours_billed,
            "monthly_discount": monthly_discount,
            "monthly_list": monthly_list,
            "monthly_net": monthly_net,
            "months_billed": months_billed,
            "one_time": one_time,
            "recurring": recurring,
            "tax": tax,
            "tax_label": tax_label,
            "tax_rate": tax_rate,
            "term_months": term_months,
            "term_net": term_net,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        grand_total = d.pop("grand_total")

        hours_billed = d.pop("hours_billed")

        monthly_discount = d.pop("monthly_discount")

        monthly_list = d.pop("monthly_list")

        monthly_net = d.pop("monthly_net")

        months_billed = d.pop("months_billed")

        one_time = d.pop("one_time")

        recurring = d.pop("recurring")

        tax = d.pop("tax")

        tax_label = d.pop("tax_label")

        def _parse_tax_rate(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tax_rate = _parse_tax_rate(d.pop("tax_rate"))


        term_months = d.pop("term_months")

        term_net = d.pop("term_net")

        quote_totals = cls(
            grand_total=grand_total,
            hours_billed=hours_billed,
            monthly_discount=monthly_discount,
            monthly_list=monthly_list,
            monthly_net=monthly_net,
            months_billed=months_billed,
            one_time=one_time,
            recurring=recurring,
            tax=tax,
            tax_label=tax_label,
            tax_rate=tax_rate,
            term_months=term_months,
            term_net=term_net,
        )

        return quote_totals

