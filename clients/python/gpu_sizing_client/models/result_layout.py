from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ResultLayout")



@_attrs_define
class ResultLayout:
    """ 
        Attributes:
            dp (int):
            ep (int):
            micro_batch (int):
            pp (int):
            recompute (str):
            sequence_parallel (bool):
            tp (int):
            virtual_stages (int):
            zero_stage (int):
     """

    dp: int
    ep: int
    micro_batch: int
    pp: int
    recompute: str
    sequence_parallel: bool
    tp: int
    virtual_stages: int
    zero_stage: int





    def to_dict(self) -> dict[str, Any]:
        dp = self.dp

        ep = self.ep

        micro_batch = self.micro_batch

        pp = self.pp

        recompute = self.recompute

        sequence_parallel = self.sequence_parallel

        tp = self.tp

        virtual_stages = self.virtual_stages

        zero_stage = self.zero_stage


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "dp": dp,
            "ep": ep,
            "micro_batch": micro_batch,
            "pp": pp,
            "recompute": recompute,
            "sequence_parallel": sequence_parallel,
            "tp": tp,
            "virtual_stages": virtual_stages,
            "zero_stage": zero_stage,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        dp = d.pop("dp")

        ep = d.pop("ep")

        micro_batch = d.pop("micro_batch")

        pp = d.pop("pp")

        recompute = d.pop("recompute")

        sequence_parallel = d.pop("sequence_parallel")

        tp = d.pop("tp")

        virtual_stages = d.pop("virtual_stages")

        zero_stage = d.pop("zero_stage")

        result_layout = cls(
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

        return result_layout

