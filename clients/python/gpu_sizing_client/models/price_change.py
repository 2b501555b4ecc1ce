from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="PriceChange")



@_attrs_define
class PriceChange:
    """ 
        Attributes:
            region (str):
            server (str):
            hourly_usd (str | Unset): An amount as a decimal string Example: 250000.00.
            monthly_usd (str | Unset): An amount as a decimal string Example: 250000.00.
            setup_fee_usd (str | Unset): An amount as a decimal string Example: 250000.00.
     """

    region: str
    server: str
    hourly_usd: str | Unset = UNSET
    monthly_usd: str | Unset = UNSET
    setup_fee_usd: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        region = self.region

        server = self.server

        hourly_usd = self.hourly_usd

        monthly_usd = self.monthly_usd

        setup_fee_usd = self.setup_fee_usd


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "region": region,
            "server": server,
        })
        if hourly_usd is not UNSET:
            field_dict["hourly_usd"] = hourly_usd
        if monthly_usd is not UNSET:
            field_dict["monthly_usd"] = monthly_usd
        if setup_fee_usd is not UNSET:
            field_dict["setup_fee_usd"] = setup_fee_usd

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        region = d.pop("region")

        server = d.pop("server")

        hourly_usd = d.pop("hourly_usd", UNSET)

        monthly_usd = d.pop("monthly_usd", UNSET)

        setup_fee_usd = d.pop("setup_fee_usd", UNSET)

        price_change = cls(
            region=region,
            server=server,
            hourly_usd=hourly_usd,
            monthly_usd=monthly_usd,
            setup_fee_usd=setup_fee_usd,
        )

        return price_change

