from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.custom_gpu_intra_link import CustomGpuIntraLink
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CustomGpu")



@_attrs_define
class CustomGpu:
    """ 
        Attributes:
            bf16_tflops (float): Dense BF16 TFLOPS
            intra_bandwidth_gbs (float): Per GPU, one direction, GB/s (bytes)
            intra_link (CustomGpuIntraLink):
            memory_gb (float):
            catalog_gpu (str | Unset): A GPU of the catalog or of a reference system (its id, as in catalog/data) that this
                one is: the model's figures measured per GPU model then apply (kernel and convolution rates, NVLink SHARP share,
                the calibration of the p10-p90 interval); the figures above still describe the hardware. Default: the model's
                figures for a GPU it has no measurement of Example: h100-sxm.
            fp8_tflops (float | None | Unset):
            memory_bandwidth_gbs (float | Unset): GB/s (bytes) Default: 2000.0.
            name (str | Unset):  Default: 'custom GPU'.
            nvlink_sharp (bool | Unset): NVSwitch with in-switch reduction (NCCL NVLS) Default: False.
     """

    bf16_tflops: float
    intra_bandwidth_gbs: float
    intra_link: CustomGpuIntraLink
    memory_gb: float
    catalog_gpu: str | Unset = UNSET
    fp8_tflops: float | None | Unset = UNSET
    memory_bandwidth_gbs: float | Unset = 2000.0
    name: str | Unset = 'custom GPU'
    nvlink_sharp: bool | Unset = False





    def to_dict(self) -> dict[str, Any]:
        bf16_tflops = self.bf16_tflops

        intra_bandwidth_gbs = self.intra_bandwidth_gbs

        intra_link = self.intra_link.value

        memory_gb = self.memory_gb

        catalog_gpu = self.catalog_gpu

        fp8_tflops: float | None | Unset
        if isinstance(self.fp8_tflops, Unset):
            fp8_tflops = UNSET
        else:
            fp8_tflops = self.fp8_tflops

        memory_bandwidth_gbs = self.memory_bandwidth_gbs

        name = self.name

        nvlink_sharp = self.nvlink_sharp


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "bf16_tflops": bf16_tflops,
            "intra_bandwidth_gbs": intra_bandwidth_gbs,
            "intra_link": intra_link,
            "memory_gb": memory_gb,
        })
        if catalog_gpu is not UNSET:
            field_dict["catalog_gpu"] = catalog_gpu
        if fp8_tflops is not UNSET:
            field_dict["fp8_tflops"] = fp8_tflops
        if memory_bandwidth_gbs is not UNSET:
            field_dict["memory_bandwidth_gbs"] = memory_bandwidth_gbs
        if name is not UNSET:
            field_dict["name"] = name
        if nvlink_sharp is not UNSET:
            field_dict["nvlink_sharp"] = nvlink_sharp

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bf16_tflops = d.pop("bf16_tflops")

        intra_bandwidth_gbs = d.pop("intra_bandwidth_gbs")

        intra_link = CustomGpuIntraLink(d.pop("intra_link"))




        memory_gb = d.pop("memory_gb")

        catalog_gpu = d.pop("catalog_gpu", UNSET)

        def _parse_fp8_tflops(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        fp8_tflops = _parse_fp8_tflops(d.pop("fp8_tflops", UNSET))


        memory_bandwidth_gbs = d.pop("memory_bandwidth_gbs", UNSET)

        name = d.pop("name", UNSET)

        nvlink_sharp = d.pop("nvlink_sharp", UNSET)

        custom_gpu = cls(
            bf16_tflops=bf16_tflops,
            intra_bandwidth_gbs=intra_bandwidth_gbs,
            intra_link=intra_link,
            memory_gb=memory_gb,
            catalog_gpu=catalog_gpu,
            fp8_tflops=fp8_tflops,
            memory_bandwidth_gbs=memory_bandwidth_gbs,
            name=name,
            nvlink_sharp=nvlink_sharp,
        )

        return custom_gpu

