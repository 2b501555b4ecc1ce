from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.quote_origin import QuoteOrigin
from ..models.quote_status import QuoteStatus
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.customer import Customer
  from ..models.priced_line import PricedLine
  from ..models.provider import Provider
  from ..models.quote_configuration import QuoteConfiguration
  from ..models.quote_network_advice import QuoteNetworkAdvice
  from ..models.quote_performance import QuotePerformance
  from ..models.quote_stock import QuoteStock
  from ..models.quote_totals import QuoteTotals
  from ..models.revision_change import RevisionChange
  from ..models.revision_summary import RevisionSummary
  from ..models.workload_summary import WorkloadSummary





T = TypeVar("T", bound="Quote")



@_attrs_define
class Quote:
    """ 
        Attributes:
            catalog_version (int): Prices frozen at this version
            change_from_previous (None | RevisionChange):
            configuration (QuoteConfiguration):
            created_at (datetime.datetime):
            currency (str):
            customer (Customer):
            exchange_rate (str):
            hours_per_month (int):
            id (str):
            issued_on (str): ISO 8601 date
            lines (list[PricedLine]):
            network_advice (None | QuoteNetworkAdvice):
            notes (list[str]):
            number (str):  Example: Q-2026-000042.
            origin (QuoteOrigin): page: made with a publishable key (the website's form), so from a visitor; api: with a
                secret key
            performance (None | QuotePerformance): Frozen from the sizing: scaling efficiency, throughput, time to train
            rates_date (str):
            revision (int):
            revisions (list[RevisionSummary]):
            seller (Provider):
            sizing_id (None | str):
            status (QuoteStatus):
            stock (QuoteStock):
            support (str):
            term (str):
            totals (QuoteTotals):
            updated_at (datetime.datetime):
            valid_until (str): ISO 8601 date
            workload (None | WorkloadSummary):
            client_secret (str | Unset): Only in the answer that created the object (and its idempotent replays): with a
                publishable key, send it in the Client-Secret header to read the object back; it is not shown again
     """

    catalog_version: int
    change_from_previous: None | RevisionChange
    configuration: QuoteConfiguration
    created_at: datetime.datetime
    currency: str
    customer: Customer
    exchange_rate: str
    hours_per_month: int
    id: str
    issued_on: str
    lines: list[PricedLine]
    network_advice: None | QuoteNetworkAdvice
    notes: list[str]
    number: str
    origin: QuoteOrigin
    performance: None | QuotePerformance
    rates_date: str
    revision: int
    revisions: list[RevisionSummary]
    seller: Provider
    sizing_id: None | str
    status: QuoteStatus
    stock: QuoteStock
    support: str
    term: str
    totals: QuoteTotals
    updated_at: datetime.datetime
    valid_until: str
    workload: None | WorkloadSummary
    client_secret: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.customer import Customer # noqa: PLC0415
        from ..models.priced_line import PricedLine # noqa: PLC0415
        from ..models.provider import Provider # noqa: PLC0415
        from ..models.quote_configuration import QuoteConfiguration # noqa: PLC0415
        from ..models.quote_network_advice import QuoteNetworkAdvice # noqa: PLC0415
        from ..models.quote_performance import QuotePerformance # noqa: PLC0415
        from ..models.quote_stock import QuoteStock # noqa: PLC0415
        from ..models.quote_totals import QuoteTotals # noqa: PLC0415
        from ..models.revision_change import RevisionChange # noqa: PLC0415
        from ..models.revision_summary import RevisionSummary # noqa: PLC0415
        from ..models.workload_summary import WorkloadSummary # noqa: PLC0415
        catalog_version = self.catalog_version

        change_from_previous: dict[str, Any] | None
        if isinstance(self.change_from_previous, RevisionChange):
            change_from_previous = self.change_from_previous.to_dict()
        else:
            change_from_previous = self.change_from_previous

        configuration = self.configuration.to_dict()

        created_at = self.created_at.isoformat()

        currency = self.currency

        customer = self.customer.to_dict()

        exchange_rate = self.exchange_rate

        hours_per_month = self.hours_per_month

        id = self.id

        issued_on = self.issued_on

        lines = []
        for lines_item_data in self.lines:
            lines_item = lines_item_data.to_dict()
            lines.append(lines_item)



        network_advice: dict[str, Any] | None
        if isinstance(self.network_advice, QuoteNetworkAdvice):
            network_advice = self.network_advice.to_dict()
        else:
            network_advice = self.network_advice

        notes = self.notes



        number = self.number

        origin = self.origin.value

        performance: dict[str, Any] | None
        if isinstance(self.performance, QuotePerformance):
            performance = self.performance.to_dict()
        else:
            performance = self.performance

        rates_date = self.rates_date

        revision = self.revision

        revisions = []
        for revisions_item_data in self.revisions:
            revisions_item = revisions_item_data.to_dict()
            revisions.append(revisions_item)



        seller = self.seller.to_dict()

        sizing_id: None | str
        sizing_id = self.sizing_id

        status = self.status.value

        stock = self.stock.to_dict()

        support = self.support

        term = self.term

        totals = self.totals.to_dict()

        updated_at = self.updated_at.isoformat()

        valid_until = self.valid_until

        workload: dict[str, Any] | None
        if isinstance(self.workload, WorkloadSummary):
            workload = self.workload.to_dict()
        else:
            workload = self.workload

        client_secret = self.client_secret


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "catalog_version": catalog_version,
            "change_from_previous": change_from_previous,
            "configuration": configuration,
            "created_at": created_at,
            "currency": currency,
            "customer": customer,
            "exchange_rate": exchange_rate,
            "hours_per_month": hours_per_month,
            "id": id,
            "issued_on": issued_on,
            "lines": lines,
            "network_advice": network_advice,
            "notes": notes,
            "number": number,
            "origin": origin,
            "performance": performance,
            "rates_date": rates_date,
            "revision": revision,
            "revisions": revisions,
            "seller": seller,
            "sizing_id": sizing_id,
            "status": status,
            "stock": stock,
            "support": support,
            "term": term,
            "totals": totals,
            "updated_at": updated_at,
            "valid_until": valid_until,
            "workload": workload,
        })
        if client_secret is not UNSET:
            field_dict["client_secret"] = client_secret

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.customer import Customer # noqa: PLC0415
        from ..models.priced_line import PricedLine # noqa: PLC0415
        from ..models.provider import Provider # noqa: PLC0415
        from ..models.quote_configuration import QuoteConfiguration # noqa: PLC0415
        from ..models.quote_network_advice import QuoteNetworkAdvice # noqa: PLC0415
        from ..models.quote_performance import QuotePerformance # noqa: PLC0415
        from ..models.quote_stock import QuoteStock # noqa: PLC0415
        from ..models.quote_totals import QuoteTotals # noqa: PLC0415
        from ..models.revision_change import RevisionChange # noqa: PLC0415
        from ..models.revision_summary import RevisionSummary # noqa: PLC0415
        from ..models.workload_summary import WorkloadSummary # noqa: PLC0415
        d = dict(src_dict)
        catalog_version = d.pop("catalog_version")

        def _parse_change_from_previous(data: object) -> None | RevisionChange:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                change_from_previous_type_0 = RevisionChange.from_dict(data)



                return change_from_previous_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RevisionChange, data)

        change_from_previous = _parse_change_from_previous(d.pop("change_from_previous"))


        configuration = QuoteConfiguration.from_dict(d.pop("configuration"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        currency = d.pop("currency")

        customer = Customer.from_dict(d.pop("customer"))




        exchange_rate = d.pop("exchange_rate")

        hours_per_month = d.pop("hours_per_month")

        id = d.pop("id")

        issued_on = d.pop("issued_on")

        lines = []
        _lines = d.pop("lines")
        for lines_item_data in (_lines):
            lines_item = PricedLine.from_dict(lines_item_data)



            lines.append(lines_item)


        def _parse_network_advice(data: object) -> None | QuoteNetworkAdvice:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                network_advice_type_0 = QuoteNetworkAdvice.from_dict(data)



                return network_advice_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QuoteNetworkAdvice, data)

        network_advice = _parse_network_advice(d.pop("network_advice"))


        notes = cast(list[str], d.pop("notes"))


        number = d.pop("number")

        origin = QuoteOrigin(d.pop("origin"))




        def _parse_performance(data: object) -> None | QuotePerformance:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                performance_type_0 = QuotePerformance.from_dict(data)



                return performance_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QuotePerformance, data)

        performance = _parse_performance(d.pop("performance"))


        rates_date = d.pop("rates_date")

        revision = d.pop("revision")

        revisions = []
        _revisions = d.pop("revisions")
        for revisions_item_data in (_revisions):
            revisions_item = RevisionSummary.from_dict(revisions_item_data)



            revisions.append(revisions_item)


        seller = Provider.from_dict(d.pop("seller"))




        def _parse_sizing_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        sizing_id = _parse_sizing_id(d.pop("sizing_id"))


        status = QuoteStatus(d.pop("status"))




        stock = QuoteStock.from_dict(d.pop("stock"))




        support = d.pop("support")

        term = d.pop("term")

        totals = QuoteTotals.from_dict(d.pop("totals"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        valid_until = d.pop("valid_until")

        def _parse_workload(data: object) -> None | WorkloadSummary:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                workload_type_0 = WorkloadSummary.from_dict(data)



                return workload_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | WorkloadSummary, data)

        workload = _parse_workload(d.pop("workload"))


        client_secret = d.pop("client_secret", UNSET)

        quote = cls(
            catalog_version=catalog_version,
            change_from_previous=change_from_previous,
            configuration=configuration,
            created_at=created_at,
            currency=currency,
            customer=customer,
            exchange_rate=exchange_rate,
            hours_per_month=hours_per_month,
            id=id,
            issued_on=issued_on,
            lines=lines,
            network_advice=network_advice,
            notes=notes,
            number=number,
            origin=origin,
            performance=performance,
            rates_date=rates_date,
            revision=revision,
            revisions=revisions,
            seller=seller,
            sizing_id=sizing_id,
            status=status,
            stock=stock,
            support=support,
            term=term,
            totals=totals,
            updated_at=updated_at,
            valid_until=valid_until,
            workload=workload,
            client_secret=client_secret,
        )

        return quote

