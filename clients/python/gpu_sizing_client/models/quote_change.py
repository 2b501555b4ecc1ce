from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.quote_change_status import QuoteChangeStatus
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.customer import Customer





T = TypeVar("T", bound="QuoteChange")



@_attrs_define
class QuoteChange:
    """ 
        Attributes:
            customer (Customer | Unset):
            status (QuoteChangeStatus | Unset): draft -> sent -> accepted; draft or sent -> expired
     """

    customer: Customer | Unset = UNSET
    status: QuoteChangeStatus | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.customer import Customer # noqa: PLC0415
        customer: dict[str, Any] | Unset = UNSET
        if not isinstance(self.customer, Unset):
            customer = self.customer.to_dict()

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if customer is not UNSET:
            field_dict["customer"] = customer
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.customer import Customer # noqa: PLC0415
        d = dict(src_dict)
        _customer = d.pop("customer", UNSET)
        customer: Customer | Unset
        if isinstance(_customer,  Unset):
            customer = UNSET
        else:
            customer = Customer.from_dict(_customer)




        _status = d.pop("status", UNSET)
        status: QuoteChangeStatus | Unset
        if isinstance(_status,  Unset):
            status = UNSET
        else:
            status = QuoteChangeStatus(_status)




        quote_change = cls(
            customer=customer,
            status=status,
        )

        return quote_change

