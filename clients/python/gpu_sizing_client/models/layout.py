from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.layout_recompute import LayoutRecompute
from ..models.layout_zero_stage import LayoutZeroStage
from ..types import UNSET, Unset






T = TypeVar("T", bound="Layout")



@_attrs_define
class Layout:
    """ 
        Attributes:
            dp (int): Data parallel
            ep (int | Unset): Expert parallel Default: 1.
            pp (int | Unset): Pipeline stages Default: 1.
            recompute (LayoutRecompute | Unset):  Default: LayoutRecompute.SELECTIVE.
            sequence_parallel (bool | Unset):  Default: False.
            tp (int | Unset): Tensor parallel Default: 1.
            virtual_stages (int | Unset): Interleaved 1F1B chunks per stage Default: 1.
            zero_stage (LayoutZeroStage | Unset): ZeRO stage; FSDP full shard is 3 Default: LayoutZeroStage.VALUE_1.
     """

    dp: int
    ep: int | Unset = 1
    pp: int | Unset = 1
    recompute: LayoutRecompute | Unset = LayoutRecompute.SELECTIVE
    sequence_parallel: bool | Unset = False
    tp: int | Unset = 1
    virtual_stages: int | Unset = 1
    zero_stage: LayoutZeroStage | Unset = LayoutZeroStage.VALUE_1





    def to_dict(self) -> dict[str, Any]:
        dp = self.dp

        ep = self.ep

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
            "dp": dp,
        })
        if ep is not UNSET:
            field_dict["ep"] = ep
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
        dp = d.pop("dp")

        ep = d.pop("ep", UNSET)

        pp = d.pop("pp", UNSET)

        _recompute = d.pop("recompute", UNSET)
        recompute: LayoutRecompute | Unset
        if isinstance(_recompute,  Unset):
            recompute = UNSET
        else:
            recompute = LayoutRecompute(_recompute)




        sequence_parallel = d.pop("sequence_parallel", UNSET)

        tp = d.pop("tp", UNSET)

        virtual_stages = d.pop("virtual_stages", UNSET)

        _zero_stage = d.pop("zero_stage", UNSET)
        zero_stage: LayoutZeroStage | Unset
        if isinstance(_zero_stage,  Unset):
            zero_stage = UNSET
        else:
            zero_stage = LayoutZeroStage(_zero_stage)




        layout = cls(
            dp=dp,
            ep=ep,
            pp=pp,
            recompute=recompute,
            sequence_parallel=sequence_parallel,
            tp=tp,
            virtual_stages=virtual_stages,
            zero_stage=zero_stage,
        )

        return layout

