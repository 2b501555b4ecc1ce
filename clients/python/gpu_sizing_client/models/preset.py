from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.preset_dimensions import PresetDimensions





T = TypeVar("T", bound="Preset")



@_attrs_define
class Preset:
    """ 
        Attributes:
            active_params (float):
            dataset (None | str): What an epoch passes over (sample-based models); null for transformers
            dimensions (PresetDimensions):
            id (str):
            kind (str): transformer (work in tokens) or generic (work in samples or epochs)
            name (str):
            params (float):
            samples_per_epoch (int | None): Samples in that dataset: a sizing of this preset by epochs alone trains on this
                many per epoch
            source (str):
            note (str | Unset):
     """

    active_params: float
    dataset: None | str
    dimensions: PresetDimensions
    id: str
    kind: str
    name: str
    params: float
    samples_per_epoch: int | None
    source: str
    note: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.preset_dimensions import PresetDimensions # noqa: PLC0415
        active_params = self.active_params

        dataset: None | str
        dataset = self.dataset

        dimensions = self.dimensions.to_dict()

        id = self.id

        kind = self.kind

        name = self.name

        params = self.params

        samples_per_epoch: int | None
        samples_per_epoch = self.samples_per_epoch

        source = self.source

        note = self.note


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "active_params": active_params,
            "dataset": dataset,
            "dimensions": dimensions,
            "id": id,
            "kind": kind,
            "name": name,
            "params": params,
            "samples_per_epoch": samples_per_epoch,
            "source": source,
        })
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.preset_dimensions import PresetDimensions # noqa: PLC0415
        d = dict(src_dict)
        active_params = d.pop("active_params")

        def _parse_dataset(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        dataset = _parse_dataset(d.pop("dataset"))


        dimensions = PresetDimensions.from_dict(d.pop("dimensions"))




        id = d.pop("id")

        kind = d.pop("kind")

        name = d.pop("name")

        params = d.pop("params")

        def _parse_samples_per_epoch(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        samples_per_epoch = _parse_samples_per_epoch(d.pop("samples_per_epoch"))


        source = d.pop("source")

        note = d.pop("note", UNSET)

        preset = cls(
            active_params=active_params,
            dataset=dataset,
            dimensions=dimensions,
            id=id,
            kind=kind,
            name=name,
            params=params,
            samples_per_epoch=samples_per_epoch,
            source=source,
            note=note,
        )

        return preset

