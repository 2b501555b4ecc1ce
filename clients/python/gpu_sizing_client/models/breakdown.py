from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Breakdown")



@_attrs_define
class Breakdown:
    """ 
        Attributes:
            bubble_s (float):
            compute_s (float):
            compute_straggler_s (float): Waiting for the slowest GPU's compute: GPUs of one model run at different speeds
            cp_exposed_s (float): Context-parallel K/V exchange not hidden behind attention
            dp_exposed_s (float):
            dp_hidden_s (float):
            ep_exposed_s (float):
            ep_hidden_s (float):
            offload_exposed_s (float): Activation offload traffic not hidden behind compute
            optimizer_s (float): Optimizer step (on the GPU, or on the host with offload), after the backward
            overlap_slowdown_s (float): Compute slowed by the communication hidden behind it (SM and HBM contention)
            pp_exposed_s (float):
            straggler_s (float):
            tp_exposed_s (float):
            tp_hidden_s (float):
            zero_exposed_s (float):
            zero_hidden_s (float):
     """

    bubble_s: float
    compute_s: float
    compute_straggler_s: float
    cp_exposed_s: float
    dp_exposed_s: float
    dp_hidden_s: float
    ep_exposed_s: float
    ep_hidden_s: float
    offload_exposed_s: float
    optimizer_s: float
    overlap_slowdown_s: float
    pp_exposed_s: float
    straggler_s: float
    tp_exposed_s: float
    tp_hidden_s: float
    zero_exposed_s: float
    zero_hidden_s: float





    def to_dict(self) -> dict[str, Any]:
        bubble_s = self.bubble_s

        compute_s = self.compute_s

        compute_straggler_s = self.compute_straggler_s

        cp_exposed_s = self.cp_exposed_s

        dp_exposed_s = self.dp_exposed_s

        dp_hidden_s = self.dp_hidden_s

        ep_exposed_s = self.ep_exposed_s

        ep_hidden_s = self.ep_hidden_s

        offload_exposed_s = self.offload_exposed_s

        optimizer_s = self.optimizer_s

        overlap_slowdown_s = self.overlap_slowdown_s

        pp_exposed_s = self.pp_exposed_s

        straggler_s = self.straggler_s

        tp_exposed_s = self.tp_exposed_s

        tp_hidden_s = self.tp_hidden_s

        zero_exposed_s = self.zero_exposed_s

        zero_hidden_s = self.zero_hidden_s


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "bubble_s": bubble_s,
            "compute_s": compute_s,
            "compute_straggler_s": compute_straggler_s,
            "cp_exposed_s": cp_exposed_s,
            "dp_exposed_s": dp_exposed_s,
            "dp_hidden_s": dp_hidden_s,
            "ep_exposed_s": ep_exposed_s,
            "ep_hidden_s": ep_hidden_s,
            "offload_exposed_s": offload_exposed_s,
            "optimizer_s": optimizer_s,
            "overlap_slowdown_s": overlap_slowdown_s,
            "pp_exposed_s": pp_exposed_s,
            "straggler_s": straggler_s,
            "tp_exposed_s": tp_exposed_s,
            "tp_hidden_s": tp_hidden_s,
            "zero_exposed_s": zero_exposed_s,
            "zero_hidden_s": zero_hidden_s,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bubble_s = d.pop("bubble_s")

        compute_s = d.pop("compute_s")

        compute_straggler_s = d.pop("compute_straggler_s")

        cp_exposed_s = d.pop("cp_exposed_s")

        dp_exposed_s = d.pop("dp_exposed_s")

        dp_hidden_s = d.pop("dp_hidden_s")

        ep_exposed_s = d.pop("ep_exposed_s")

        ep_hidden_s = d.pop("ep_hidden_s")

        offload_exposed_s = d.pop("offload_exposed_s")

        optimizer_s = d.pop("optimizer_s")

        overlap_slowdown_s = d.pop("overlap_slowdown_s")

        pp_exposed_s = d.pop("pp_exposed_s")

        straggler_s = d.pop("straggler_s")

        tp_exposed_s = d.pop("tp_exposed_s")

        tp_hidden_s = d.pop("tp_hidden_s")

        zero_exposed_s = d.pop("zero_exposed_s")

        zero_hidden_s = d.pop("zero_hidden_s")

        breakdown = cls(
            bubble_s=bubble_s,
            compute_s=compute_s,
            compute_straggler_s=compute_straggler_s,
            cp_exposed_s=cp_exposed_s,
            dp_exposed_s=dp_exposed_s,
            dp_hidden_s=dp_hidden_s,
            ep_exposed_s=ep_exposed_s,
            ep_hidden_s=ep_hidden_s,
            offload_exposed_s=offload_exposed_s,
            optimizer_s=optimizer_s,
            overlap_slowdown_s=overlap_slowdown_s,
            pp_exposed_s=pp_exposed_s,
            straggler_s=straggler_s,
            tp_exposed_s=tp_exposed_s,
            tp_hidden_s=tp_hidden_s,
            zero_exposed_s=zero_exposed_s,
            zero_hidden_s=zero_hidden_s,
        )

        return breakdown

