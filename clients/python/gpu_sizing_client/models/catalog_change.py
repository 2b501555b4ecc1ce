from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.price_change import PriceChange
  from ..models.stock_change import StockChange





T = TypeVar("T", bound="CatalogChange")



@_attrs_define
class CatalogChange:
    """ 
        Attributes:
            note (str): Why the catalog changes
            server_prices (list[PriceChange] | Unset): Each server and region at most once
            stock (list[StockChange] | Unset): Each region and server at most once
     """

    note: str
    server_prices: list[PriceChange] | Unset = UNSET
    stock: list[StockChange] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.price_change import PriceChange # noqa: PLC0415
        from ..models.stock_change import StockChange # noqa: PLC0415
        note = self.note

        server_prices: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.server_prices, Unset):
            server_prices = []
            for server_prices_item_data in self.server_prices:
                server_prices_item = server_prices_item_data.to_dict()
                server_prices.append(server_prices_item)



        stock: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.stock, Unset):
            stock = []
            for stock_item_data in self.stock:
                stock_item = stock_item_data.to_dict()
                stock.append(stock_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "note": note,
        })
        if server_prices is not UNSET:
            field_dict["server_prices"] = server_prices
        if stock is not UNSET:
            field_dict["stock"] = stock

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.price_change import PriceChange # noqa: PLC0415
        from ..models.stock_change import StockChange # noqa: PLC0415
        d = dict(src_dict)
        note = d.pop("note")

        _server_prices = d.pop("server_prices", UNSET)
        server_prices: list[PriceChange] | Unset = UNSET
        if _server_prices is not UNSET:
            server_prices = []
            for server_prices_item_data in _server_prices:
                server_prices_item = PriceChange.from_dict(server_prices_item_data)



                server_prices.append(server_prices_item)


        _stock = d.pop("stock", UNSET)
        stock: list[StockChange] | Unset = UNSET
        if _stock is not UNSET:
            stock = []
            for stock_item_data in _stock:
                stock_item = StockChange.from_dict(stock_item_data)



                stock.append(stock_item)


        catalog_change = cls(
            note=note,
            server_prices=server_prices,
            stock=stock,
        )

        return catalog_change

