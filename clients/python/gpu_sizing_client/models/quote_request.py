from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.quote_request_support import QuoteRequestSupport
from ..models.quote_request_term import QuoteRequestTerm
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.customer import Customer
  from ..models.explicit_configuration import ExplicitConfiguration





T = TypeVar("T", bound="QuoteRequest")



@_attrs_define
class QuoteRequest:
    """ 
        Attributes:
            customer (Customer):
            configuration (ExplicitConfiguration | Unset):
            currency (str | Unset): ISO 4217; default: the sizing's, else USD
            rank (int | Unset): Its ranked configuration (default 1)
            sizing_client_secret (str | Unset): Publishable keys: the client_secret the sizing's creation returned (required
                with sizing_id); secret keys need none
            sizing_id (UUID | Unset): A succeeded sizing of yours
            support (QuoteRequestSupport | Unset):  Default: QuoteRequestSupport.NONE.
            term (QuoteRequestTerm | Unset): Default: the sizing's, else monthly
            valid_days (int | Unset):  Default: 30.
     """

    customer: Customer
    configuration: ExplicitConfiguration | Unset = UNSET
    currency: str | Unset = UNSET
    rank: int | Unset = UNSET
    sizing_client_secret: str | Unset = UNSET
    sizing_id: UUID | Unset = UNSET
    support: QuoteRequestSupport | Unset = QuoteRequestSupport.NONE
    term: QuoteRequestTerm | Unset = UNSET
    valid_days: int | Unset = 30





    def to_dict(self) -> dict[str, Any]:
        from ..models.customer import Customer # noqa: PLC0415
        from ..models.explicit_configuration import ExplicitConfiguration # noqa: PLC0415
        customer = self.customer.to_dict()

        configuration: dict[str, Any] | Unset = UNSET
        if not isinstance(self.configuration, Unset):
            configuration = self.configuration.to_dict()

        currency = self.currency

        rank = self.rank

        sizing_client_secret = self.sizing_client_secret

        sizing_id: str | Unset = UNSET
        if not isinstance(self.sizing_id, Unset):
            sizing_id = str(self.sizing_id)

        support: str | Unset = UNSET
        if not isinstance(self.support, Unset):
            support = self.support.value


        term: str | Unset = UNSET
        if not isinstance(self.term, Unset):
            term = self.term.value


        valid_days = self.valid_days


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "customer": customer,
        })
        if configuration is not UNSET:
            field_dict["configuration"] = configuration
        if currency is not UNSET:
            field_dict["currency"] = currency
        if rank is not UNSET:
            field_dict["rank"] = rank
        if sizing_client_secret is not UNSET:
            field_dict["sizing_client_secret"] = sizing_client_secret
        if sizing_id is not UNSET:
            field_dict["sizing_id"] = sizing_id
        if support is not UNSET:
            field_dict["support"] = support
        if term is not UNSET:
            field_dict["term"] = term
        if valid_days is not UNSET:
            field_dict["valid_days"] = valid_days

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.customer import Customer # noqa: PLC0415
        from ..models.explicit_configuration import ExplicitConfiguration # noqa: PLC0415
        d = dict(src_dict)
        customer = Customer.from_dict(d.pop("customer"))




        _configuration = d.pop("configuration", UNSET)
        configuration: ExplicitConfiguration | Unset
        if isinstance(_configuration,  Unset):
            configuration = UNSET
        else:
            configuration = ExplicitConfiguration.from_dict(_configuration)




        currency = d.pop("currency", UNSET)

        rank = d.pop("rank", UNSET)

        sizing_client_secret = d.pop("sizing_client_secret", UNSET)

        _sizing_id = d.pop("sizing_id", UNSET)
        sizing_id: UUID | Unset
        if isinstance(_sizing_id,  Unset):
            sizing_id = UNSET
        else:
            sizing_id = UUID(_sizing_id)




        _support = d.pop("support", UNSET)
        support: QuoteRequestSupport | Unset
        if isinstance(_support,  Unset):
            support = UNSET
        else:
            support = QuoteRequestSupport(_support)




        _term = d.pop("term", UNSET)
        term: QuoteRequestTerm | Unset
        if isinstance(_term,  Unset):
            term = UNSET
        else:
            term = QuoteRequestTerm(_term)




        valid_days = d.pop("valid_days", UNSET)

        quote_request = cls(
            customer=customer,
            configuration=configuration,
            currency=currency,
            rank=rank,
            sizing_client_secret=sizing_client_secret,
            sizing_id=sizing_id,
            support=support,
            term=term,
            valid_days=valid_days,
        )

        return quote_request

