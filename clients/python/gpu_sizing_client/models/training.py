from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.training_precision import TrainingPrecision
from ..types import UNSET, Unset






T = TypeVar("T", bound="Training")



@_attrs_define
class Training:
    """ 
        Attributes:
            global_batch (int): Samples (sequences) per optimizer step
            micro_batch (int | Unset):  Default: 1.
            precision (TrainingPrecision | Unset): Mixed precision: bf16, fp8 (linear layers in FP8, where the GPU has it)
                or fp16 (as GPUs without BF16 train, V100 and P100). Default: bf16, or fp16 on a GPU without BF16
     """

    global_batch: int
    micro_batch: int | Unset = 1
    precision: TrainingPrecision | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        global_batch = self.global_batch

        micro_batch = self.micro_batch

        precision: str | Unset = UNSET
        if not isinstance(self.precision, Unset):
            precision = self.precision.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "global_batch": global_batch,
        })
        if micro_batch is not UNSET:
            field_dict["micro_batch"] = micro_batch
        if precision is not UNSET:
            field_dict["precision"] = precision

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        global_batch = d.pop("global_batch")

        micro_batch = d.pop("micro_batch", UNSET)

        _precision = d.pop("precision", UNSET)
        precision: TrainingPrecision | Unset
        if isinstance(_precision,  Unset):
            precision = UNSET
        else:
            precision = TrainingPrecision(_precision)




        training = cls(
            global_batch=global_batch,
            micro_batch=micro_batch,
            precision=precision,
        )

        return training

