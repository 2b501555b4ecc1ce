from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Memory")



@_attrs_define
class Memory:
    """ 
        Attributes:
            activations_gb (float):
            buffers_gb (float): ZeRO-3/FSDP gather and prefetch buffers
            capacity_gb (float):
            fits (bool): total_gb + headroom_gb <= capacity_gb, and host_offload_gb <= host_capacity_gb
            gradients_gb (float):
            headroom_gb (float): Kept free by policy (fragmentation, buffers)
            host_capacity_gb (float | None): Per node: the host memory offload may use, the policy's share
                (host_memory_reserve_share) kept for the OS and the data loader; null where the server does not state its host
                memory (not checked)
            host_offload_gb (float | None): Per node: the optimizer state and activations offload puts in host memory (0
                without offload; null for results stored before it)
            logits_gb (float): 16-bit logits and their FP32 copy on the last stage
            margin_gb (float): Left beyond the headroom; negative: does not fit
            optimizer_gb (float):
            reserved_gb (float):
            total_gb (float):
            weights_gb (float):
     """

    activations_gb: float
    buffers_gb: float
    capacity_gb: float
    fits: bool
    gradients_gb: float
    headroom_gb: float
    host_capacity_gb: float | None
    host_offload_gb: float | None
    logits_gb: float
    margin_gb: float
    optimizer_gb: float
    reserved_gb: float
    total_gb: float
    weights_gb: float





    def to_dict(self) -> dict[str, Any]:
        activations_gb = self.activations_gb

        buffers_gb = self.buffers_gb

        capacity_gb = self.capacity_gb

        fits = self.fits

        gradients_gb = self.gradients_gb

        headroom_gb = self.headroom_gb

        host_capacity_gb: float | None
        host_capacity_gb = self.host_capacity_gb

        host_offload_gb: float | None
        host_offload_gb = self.host_offload_gb

        logits_gb = self.logits_gb

        margin_gb = self.margin_gb

        optimizer_gb = self.optimizer_gb

        reserved_gb = self.reserved_gb

        total_gb = self.total_gb

        weights_gb = self.weights_gb


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "activations_gb": activations_gb,
            "buffers_gb": buffers_gb,
            "capacity_gb": capacity_gb,
            "fits": fits,
            "gradients_gb": gradients_gb,
            "headroom_gb": headroom_gb,
            "host_capacity_gb": host_capacity_gb,
            "host_offload_gb": host_offload_gb,
            "logits_gb": logits_gb,
            "margin_gb": margin_gb,
            "optimizer_gb": optimizer_gb,
            "reserved_gb": reserved_gb,
            "total_gb": total_gb,
            "weights_gb": weights_gb,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        activations_gb = d.pop("activations_gb")

        buffers_gb = d.pop("buffers_gb")

        capacity_gb = d.pop("capacity_gb")

        fits = d.pop("fits")

        gradients_gb = d.pop("gradients_gb")

        headroom_gb = d.pop("headroom_gb")

        def _parse_host_capacity_gb(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        host_capacity_gb = _parse_host_capacity_gb(d.pop("host_capacity_gb"))


        def _parse_host_offload_gb(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        host_offload_gb = _parse_host_offload_gb(d.pop("host_offload_gb"))


        logits_gb = d.pop("logits_gb")

        margin_gb = d.pop("margin_gb")

        optimizer_gb = d.pop("optimizer_gb")

        reserved_gb = d.pop("reserved_gb")

        total_gb = d.pop("total_gb")

        weights_gb = d.pop("weights_gb")

        memory = cls(
            activations_gb=activations_gb,
            buffers_gb=buffers_gb,
            capacity_gb=capacity_gb,
            fits=fits,
            gradients_gb=gradients_gb,
            headroom_gb=headroom_gb,
            host_capacity_gb=host_capacity_gb,
            host_offload_gb=host_offload_gb,
            logits_gb=logits_gb,
            margin_gb=margin_gb,
            optimizer_gb=optimizer_gb,
            reserved_gb=reserved_gb,
            total_gb=total_gb,
            weights_gb=weights_gb,
        )

        return memory

