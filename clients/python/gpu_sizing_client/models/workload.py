from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.workload_preset import WorkloadPreset
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.generic_model import GenericModel
  from ..models.transformer import Transformer





T = TypeVar("T", bound="Workload")



@_attrs_define
class Workload:
    """ 
        Attributes:
            generic (GenericModel | Unset):
            preset (WorkloadPreset | Unset): A model preset id (GET /v1/presets) Example: llama-3-70b.
            seq_len (int | Unset): Override the preset's sequence length
            transformer (Transformer | Unset):
     """

    generic: GenericModel | Unset = UNSET
    preset: WorkloadPreset | Unset = UNSET
    seq_len: int | Unset = UNSET
    transformer: Transformer | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.generic_model import GenericModel # noqa: PLC0415
        from ..models.transformer import Transformer # noqa: PLC0415
        generic: dict[str, Any] | Unset = UNSET
        if not isinstance(self.generic, Unset):
            generic = self.generic.to_dict()

        preset: str | Unset = UNSET
        if not isinstance(self.preset, Unset):
            preset = self.preset.value


        seq_len = self.seq_len

        transformer: dict[str, Any] | Unset = UNSET
        if not isinstance(self.transformer, Unset):
            transformer = self.transformer.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if generic is not UNSET:
            field_dict["generic"] = generic
        if preset is not UNSET:
            field_dict["preset"] = preset
        if seq_len is not UNSET:
            field_dict["seq_len"] = seq_len
        if transformer is not UNSET:
            field_dict["transformer"] = transformer

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.generic_model import GenericModel # noqa: PLC0415
        from ..models.transformer import Transformer # noqa: PLC0415
        d = dict(src_dict)
        _generic = d.pop("generic", UNSET)
        generic: GenericModel | Unset
        if isinstance(_generic,  Unset):
            generic = UNSET
        else:
            generic = GenericModel.from_dict(_generic)




        _preset = d.pop("preset", UNSET)
        preset: WorkloadPreset | Unset
        if isinstance(_preset,  Unset):
            preset = UNSET
        else:
            preset = WorkloadPreset(_preset)




        seq_len = d.pop("seq_len", UNSET)

        _transformer = d.pop("transformer", UNSET)
        transformer: Transformer | Unset
        if isinstance(_transformer,  Unset):
            transformer = UNSET
        else:
            transformer = Transformer.from_dict(_transformer)




        workload = cls(
            generic=generic,
            preset=preset,
            seq_len=seq_len,
            transformer=transformer,
        )

        return workload

