from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.stock import Stock





T = TypeVar("T", bound="Region")



@_attrs_define
class Region:
    """ 
        Attributes:
            country (str): ISO 3166-1 alpha-2
            id (str):  Example: eu-central.
            name (str):
            stock (list[Stock] | Unset):
     """

    country: str
    id: str
    name: str
    stock: list[Stock] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.stock import Stock # noqa: PLC0415
        country = self.country

        id = self.id

        name = self.name

        stock: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.stock, Unset):
            stock = []
            for stock_item_data in self.stock:
                stock_item = stock_item_data.to_dict()
                stock.append(stock_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "country": country,
            "id": id,
            "name": name,
        })
        if stock is not UNSET:
            field_dict["stock"] = stock

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stock import Stock # noqa: PLC0415
        d = dict(src_dict)
        country = d.pop("country")

        id = d.pop("id")

        name = d.pop("name")

        _stock = d.pop("stock", UNSET)
        stock: list[Stock] | Unset = UNSET
        if _stock is not UNSET:
            stock = []
            for stock_item_data in _stock:
                stock_item = Stock.from_dict(stock_item_data)



                stock.append(stock_item)


        region = cls(
            country=country,
            id=id,
            name=name,
            stock=stock,
        )

        return region

