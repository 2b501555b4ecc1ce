from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.fixed_layout_recompute import FixedLayoutRecompute
from ..models.fixed_layout_zero_stage import FixedLayoutZeroStage
from ..types import UNSET, Unset






T = TypeVar("T", bound="FixedLayout")



@_attrs_define
class FixedLayout:
    """ 
        Attributes:
            dp (int | Unset):
            ep (int | Unset):  Default: 1.
            micro_batch (int | Unset):  Default: 1.
            pp (int | Unset):  Default: 1.
            recompute (FixedLayoutRecompute | Unset):  Default: FixedLayoutRecompute.SELECTIVE.
            sequence_parallel (bool | Unset):  Default: False.
            tp (int | Unset):  Default: 1.
            virtual_stages (int | Unset):  Default: 1.
            zero_stage (FixedLayoutZeroStage | Unset):  Default: FixedLayoutZeroStage.VALUE_1.
     """

    dp: int | Unset = UNSET
    ep: int | Unset = 1
    micro_batch: int | Unset = 1
    pp: int | Unset = 1
    recompute: FixedLayoutRecompute | Unset = FixedLayoutRecompute.SELECTIVE
    sequence_parallel: bool | Unset = False
    tp: int | Unset = 1
    virtual_stages: int | Unset = 1
    zero_stage: FixedLayoutZeroStage | Unset = FixedLayoutZeroStage.VALUE_1





    def to_dict(self) -> dict[str, Any]:
        dp = self.dp

        ep = self.ep

        micro_batch = self.micro_batch

        pp = self.pp

        recompute: str | Unset = UNSET
        if not isinstance(self.recompute, Unset):
            recompute = self.recompute.value


        sequence_parallel = self.sequence_parallel

        tp = self.tp

        virtual_stages = self.virtual_stages

        zero_stage: int | Unset = UNSET
        if not isinstance(self.zero_stage, Unset):
            zero_stage = self.zero_stage.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if dp is not UNSET:
            field_dict["dp"] = dp
        if ep is not UNSET:
            field_dict["ep"] = ep
        if micro_batch is not UNSET:
            field_dict["micro_batch"] = micro_batch
        if pp is not UNSET:
            field_dict["pp"] = pp
        if recompute is not UNSET:
            field_dict["recompute"] = recompute
        if sequence_parallel is not UNSET:
            field_dict["sequence_parallel"] = sequence_parallel
        if tp is not UNSET:
            field_dict["tp"] = tp
        if virtual_stages is not UNSET:
            field_dict["virtual_stages"] = virtual_stages
        if zero_stage is not UNSET:
            field_dict["zero_stage"] = zero_stage

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        dp = d.pop("dp", UNSET)

        ep = d.pop("ep", UNSET)

        micro_batch = d.pop("micro_batch", UNSET)

        pp = d.pop("pp", UNSET)

        _recompute = d.pop("recompute", UNSET)
        recompute: FixedLayoutRecompute | Unset
        if isinstance(_recompute,  Unset):
            recompute = UNSET
        else:
            recompute = FixedLayoutRecompute(_recompute)




        sequence_parallel = d.pop("sequence_parallel", UNSET)

        tp = d.pop("tp", UNSET)

        virtual_stages = d.pop("virtual_stages", UNSET)

        _zero_stage = d.pop("zero_stage", UNSET)
        zero_stage: FixedLayoutZeroStage | Unset
        if isinstance(_zero_stage,  Unset):
            zero_stage = UNSET
        else:
            zero_stage = FixedLayoutZeroStage(_zero_stage)




        fixed_layout = cls(
            dp=dp,
            ep=ep,
            micro_batch=micro_batch,
            pp=pp,
            recompute=recompute,
            sequence_parallel=sequence_parallel,
            tp=tp,
            virtual_stages=virtual_stages,
            zero_stage=zero_stage,
        )

        return fixed_layout

