from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="StockView")



@_attrs_define
class StockView:
    """ 
        Attributes:
            available_now (int): Nodes of this server in stock in the region now
            delivery_date (datetime.date): When the last node can be handed over (ISO 8601)
            from_deliveries (int): Nodes of this configuration that come on order
            lead_time_days (int):
            warning (None | str):
     """

    available_now: int
    delivery_date: datetime.date
    from_deliveries: int
    lead_time_days: int
    warning: None | str





    def to_dict(self) -> dict[str, Any]:
        available_now = self.available_now

        delivery_date = self.delivery_date.isoformat()

        from_deliveries = self.from_deliveries

        lead_time_days = self.lead_time_days

        warning: None | str
        warning = self.warning


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "available_now": available_now,
            "delivery_date": delivery_date,
            "from_deliveries": from_deliveries,
            "lead_time_days": lead_time_days,
            "warning": warning,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        available_now = d.pop("available_now")

        delivery_date = datetime.date.fromisoformat(d.pop("delivery_date"))




        from_deliveries = d.pop("from_deliveries")

        lead_time_days = d.pop("lead_time_days")

        def _parse_warning(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        warning = _parse_warning(d.pop("warning"))


        stock_view = cls(
            available_now=available_now,
            delivery_date=delivery_date,
            from_deliveries=from_deliveries,
            lead_time_days=lead_time_days,
            warning=warning,
        )

        return stock_view

