from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.priced_line_billing import PricedLineBilling






T = TypeVar("T", bound="PricedLine")



@_attrs_define
class PricedLine:
    """ 
        Attributes:
            billing (PricedLineBilling):
            code (str):
            description (str):
            discount (str):
            discount_rate (str):
            list_amount (str):
            net (str):
            quantity (str):
            unit (str):
            unit_price (str):
     """

    billing: PricedLineBilling
    code: str
    description: str
    discount: str
    discount_rate: str
    list_amount: str
    net: str
    quantity: str
    unit: str
    unit_price: str





    def to_dict(self) -> dict[str, Any]:
        billing = self.billing.value

        code = self.code

        description = self.description

        discount = self.discount

        discount_rate = self.discount_rate

        list_amount = self.list_amount

        net = self.net

        quantity = self.quantity

        unit = self.unit

        unit_price = self.unit_price


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "billing": billing,
            "code": code,
            "description": description,
            "discount": discount,
            "discount_rate": discount_rate,
            "list_amount": list_amount,
            "net": net,
            "quantity": quantity,
            "unit": unit,
            "unit_price": unit_price,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        billing = PricedLineBilling(d.pop("billing"))




        code = d.pop("code")

        description = d.pop("description")

        discount = d.pop("discount")

        discount_rate = d.pop("discount_rate")

        list_amount = d.pop("list_amount")

        net = d.pop("net")

        quantity = d.pop("quantity")

        unit = d.pop("unit")

        unit_price = d.pop("unit_price")

        priced_line = cls(
            billing=billing,
            code=code,
            description=description,
            discount=discount,
            discount_rate=discount_rate,
            list_amount=list_amount,
            net=net,
            quantity=quantity,
            unit=unit,
            unit_price=unit_price,
        )

        return priced_line

