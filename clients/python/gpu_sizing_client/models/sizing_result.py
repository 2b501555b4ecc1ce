from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.efficiency_series import EfficiencySeries
  from ..models.network_advice import NetworkAdvice
  from ..models.ranked_configuration import RankedConfiguration
  from ..models.sizing_result_excluded import SizingResultExcluded
  from ..models.workload_summary import WorkloadSummary





T = TypeVar("T", bound="SizingResult")



@_attrs_define
class SizingResult:
    """ 
        Attributes:
            candidates_eligible (int):
            candidates_evaluated (int):
            catalog_version (int):
            configurations (list[RankedConfiguration]):
            currency (str):
            efficiency_series (EfficiencySeries | None):
            excluded (SizingResultExcluded): Candidates ruled out, by reason
            network_advice (NetworkAdvice | None):
            notes (list[str]):
            objective (str):
            priced_on (datetime.date): The day prices and stock were read (ISO 8601)
            rank_one_stable (bool | None): Whether rank 1's objective is ahead of rank 2's beyond both p10-p90 intervals;
                null with fewer than two configurations
            rank_stability (None | str): The same in words
            region (str):
            term (str):
            workload (WorkloadSummary):
     """

    candidates_eligible: int
    candidates_evaluated: int
    catalog_version: int
    configurations: list[RankedConfiguration]
    currency: str
    efficiency_series: EfficiencySeries | None
    excluded: SizingResultExcluded
    network_advice: NetworkAdvice | None
    notes: list[str]
    objective: str
    priced_on: datetime.date
    rank_one_stable: bool | None
    rank_stability: None | str
    region: str
    term: str
    workload: WorkloadSummary





    def to_dict(self) -> dict[str, Any]:
        from ..models.efficiency_series import EfficiencySeries # noqa: PLC0415
        from ..models.network_advice import NetworkAdvice # noqa: PLC0415
        from ..models.ranked_configuration import RankedConfiguration # noqa: PLC0415
        from ..models.sizing_result_excluded import SizingResultExcluded # noqa: PLC0415
        from ..models.workload_summary import WorkloadSummary # noqa: PLC0415
        candidates_eligible = self.candidates_eligible

        candidates_evaluated = self.candidates_evaluated

        catalog_version = self.catalog_version

        configurations = []
        for configurations_item_data in self.configurations:
            configurations_item = configurations_item_data.to_dict()
            configurations.append(configurations_item)



        currency = self.currency

        efficiency_series: dict[str, Any] | None
        if isinstance(self.efficiency_series, EfficiencySeries):
            efficiency_series = self.efficiency_series.to_dict()
        else:
            efficiency_series = self.efficiency_series

        excluded = self.excluded.to_dict()

        network_advice: dict[str, Any] | None
        if isinstance(self.network_advice, NetworkAdvice):
            network_advice = self.network_advice.to_dict()
        else:
            network_advice = self.network_advice

        notes = self.notes



        objective = self.objective

        priced_on = self.priced_on.isoformat()

        rank_one_stable: bool | None
        rank_one_stable = self.rank_one_stable

        rank_stability: None | str
        rank_stability = self.rank_stability

        region = self.region

        term = self.term

        workload = self.workload.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "candidates_eligible": candidates_eligible,
            "candidates_evaluated": candidates_evaluated,
            "catalog_version": catalog_version,
            "configurations": configurations,
            "currency": currency,
            "efficiency_series": efficiency_series,
            "excluded": excluded,
            "network_advice": network_advice,
            "notes": notes,
            "objective": objective,
            "priced_on": priced_on,
            "rank_one_stable": rank_one_stable,
            "rank_stability": rank_stability,
            "region": region,
            "term": term,
            "workload": workload,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.efficiency_series import EfficiencySeries # noqa: PLC0415
        from ..models.network_advice import NetworkAdvice # noqa: PLC0415
        from ..models.ranked_configuration import RankedConfiguration # noqa: PLC0415
        from ..models.sizing_result_excluded import SizingResultExcluded # noqa: PLC0415
        from ..models.workload_summary import WorkloadSummary # noqa: PLC0415
        d = dict(src_dict)
        candidates_eligible = d.pop("candidates_eligible")

        candidates_evaluated = d.pop("candidates_evaluated")

        catalog_version = d.pop("catalog_version")

        configurations = []
        _configurations = d.pop("configurations")
        for configurations_item_data in (_configurations):
            configurations_item = RankedConfiguration.from_dict(configurations_item_data)



            configurations.append(configurations_item)


        currency = d.pop("currency")

        def _parse_efficiency_series(data: object) -> EfficiencySeries | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                efficiency_series_type_0 = EfficiencySeries.from_dict(data)



                return efficiency_series_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EfficiencySeries | None, data)

        efficiency_series = _parse_efficiency_series(d.pop("efficiency_series"))


        excluded = SizingResultExcluded.from_dict(d.pop("excluded"))




        def _parse_network_advice(data: object) -> NetworkAdvice | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                network_advice_type_0 = NetworkAdvice.from_dict(data)



                return network_advice_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NetworkAdvice | None, data)

        network_advice = _parse_network_advice(d.pop("network_advice"))


        notes = cast(list[str], d.pop("notes"))


        objective = d.pop("objective")

        priced_on = datetime.date.fromisoformat(d.pop("priced_on"))




        def _parse_rank_one_stable(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        rank_one_stable = _parse_rank_one_stable(d.pop("rank_one_stable"))


        def _parse_rank_stability(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rank_stability = _parse_rank_stability(d.pop("rank_stability"))


        region = d.pop("region")

        term = d.pop("term")

        workload = WorkloadSummary.from_dict(d.pop("workload"))




        sizing_result = cls(
            candidates_eligible=candidates_eligible,
            candidates_evaluated=candidates_evaluated,
            catalog_version=catalog_version,
            configurations=configurations,
            currency=currency,
            efficiency_series=efficiency_series,
            excluded=excluded,
            network_advice=network_advice,
            notes=notes,
            objective=objective,
            priced_on=priced_on,
            rank_one_stable=rank_one_stable,
            rank_stability=rank_stability,
            region=region,
            term=term,
            workload=workload,
        )

        return sizing_result

