from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.workload_summary_kind import WorkloadSummaryKind
from typing import cast






T = TypeVar("T", bound="WorkloadSummary")



@_attrs_define
class WorkloadSummary:
    """ 
        Attributes:
            duration_days (float | None): A deadline, or alone the duration to price
            epochs (float | None): Epochs over those samples
            kind (WorkloadSummaryKind):
            name (str):
            params (float): Parameters, counted from the model's dimensions: exact, not rounded
            precision (str):
            samples_per_epoch (float | None): Samples per epoch: given, or the preset's dataset
            tokens (float | None): Tokens to train
     """

    duration_days: float | None
    epochs: float | None
    kind: WorkloadSummaryKind
    name: str
    params: float
    precision: str
    samples_per_epoch: float | None
    tokens: float | None





    def to_dict(self) -> dict[str, Any]:
        duration_days: float | None
        duration_days = self.duration_days

        epochs: float | None
        epochs = self.epochs

        kind = self.kind.value

        name = self.name

        params = self.params

        precision = self.precision

        samples_per_epoch: float | None
        samples_per_epoch = self.samples_per_epoch

        tokens: float | None
        tokens = self.tokens


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "duration_days": duration_days,
            "epochs": epochs,
            "kind": kind,
            "name": name,
            "params": params,
            "precision": precision,
            "samples_per_epoch": samples_per_epoch,
            "tokens": tokens,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_duration_days(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        duration_days = _parse_duration_days(d.pop("duration_days"))


        def _parse_epochs(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        epochs = _parse_epochs(d.pop("epochs"))


        kind = WorkloadSummaryKind(d.pop("kind"))




        name = d.pop("name")

        params = d.pop("params")

        precision = d.pop("precision")

        def _parse_samples_per_epoch(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        samples_per_epoch = _parse_samples_per_epoch(d.pop("samples_per_epoch"))


        def _parse_tokens(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        tokens = _parse_tokens(d.pop("tokens"))


        workload_summary = cls(
            duration_days=duration_days,
            epochs=epochs,
            kind=kind,
            name=name,
            params=params,
            precision=precision,
            samples_per_epoch=samples_per_epoch,
            tokens=tokens,
        )

        return workload_summary

