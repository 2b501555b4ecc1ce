from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Provider")



@_attrs_define
class Provider:
    """ 
        Attributes:
            address (list[str]):
            country (str):
            email (str):
            name (str):
            phone (str):
            terms (list[str]):
            vat_id (str):
            website (str):
     """

    address: list[str]
    country: str
    email: str
    name: str
    phone: str
    terms: list[str]
    vat_id: str
    website: str





    def to_dict(self) -> dict[str, Any]:
        address = self.address



        country = self.country

        email = self.email

        name = self.name

        phone = self.phone

        terms = self.terms



        vat_id = self.vat_id

        website = self.website


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "address": address,
            "country": country,
            "email": email,
            "name": name,
            "phone": phone,
            "terms": terms,
            "vat_id": vat_id,
            "website": website,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        address = cast(list[str], d.pop("address"))


        country = d.pop("country")

        email = d.pop("email")

        name = d.pop("name")

        phone = d.pop("phone")

        terms = cast(list[str], d.pop("terms"))


        vat_id = d.pop("vat_id")

        website = d.pop("website")

        provider = cls(
            address=address,
            country=country,
            email=email,
            name=name,
            phone=phone,
            terms=terms,
            vat_id=vat_id,
            website=website,
        )

        return provider

