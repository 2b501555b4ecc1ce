from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="QuoteStock")



@_attrs_define
class QuoteStock:
    """ 
        Attributes:
            available_now (int):
            delivery_date (str):
            from_deliveries (int):
            lead_time_days (int):
            undeliverable (int): Nodes beyond stock and nodes on order: 0 when created (more is refused); a later revision
                shows it when the stock dropped, and such a quote is not sent or accepted
            warning (None | str):
     """

    available_now: int
    delivery_date: str
    from_deliveries: int
    lead_time_days: int
    undeliverable: int
    warning: None | str





    def to_dict(self) -> dict[str, Any]:
        available_now = self.available_now

        delivery_date = self.delivery_date

        from_deliveries = self.from_deliveries

        lead_time_days = self.lead_time_days

        undeliverable = self.undeliverable

        warning: None | str
        warning = self.warning


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "available_now": available_now,
            "delivery_date": delivery_date,
            "from_deliveries": from_deliveries,
            "lead_time_days": lead_time_days,
            "undeliverable": undeliverable,
            "warning": warning,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        available_now = d.pop("available_now")

        delivery_date = d.pop("delivery_date")

        from_deliveries = d.pop("from_deliveries")

        lead_time_days = d.pop("lead_time_days")

        undeliverable = d.pop("undeliverable")

        def _parse_warning(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        warning = _parse_warning(d.pop("warning"))


        quote_stock = cls(
            available_now=available_now,
            delivery_date=delivery_date,
            from_deliveries=from_deliveries,
            lead_time_days=lead_time_days,
            undeliverable=undeliverable,
            warning=warning,
        )

        return quote_stock

