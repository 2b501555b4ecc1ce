from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="Customer")



@_attrs_define
class Customer:
    """ 
        Attributes:
            name (str):
            company (str | Unset):
            country (str | Unset): Decides the tax line; an officially assigned ISO 3166-1 alpha-2 code
            email (str | Unset):
            vat_id (str | Unset): A business customer's VAT id. In an EU country it carries that country's prefix (Greece's
                is EL; another is a 422) and is reverse charged in another EU country than the provider's; outside the EU it is
                the business's own tax registration number in its country's format (Japan's T and 13 digits, Singapore's GST
                number, a US EIN), which marks a business: none of the provider's VAT
     """

    name: str
    company: str | Unset = UNSET
    country: str | Unset = UNSET
    email: str | Unset = UNSET
    vat_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        company = self.company

        country = self.country

        email = self.email

        vat_id = self.vat_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
        })
        if company is not UNSET:
            field_dict["company"] = company
        if country is not UNSET:
            field_dict["country"] = country
        if email is not UNSET:
            field_dict["email"] = email
        if vat_id is not UNSET:
            field_dict["vat_id"] = vat_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        company = d.pop("company", UNSET)

        country = d.pop("country", UNSET)

        email = d.pop("email", UNSET)

        vat_id = d.pop("vat_id", UNSET)

        customer = cls(
            name=name,
            company=company,
            country=country,
            email=email,
            vat_id=vat_id,
        )

        return customer

