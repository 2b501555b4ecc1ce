from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="GenericModel")



@_attrs_define
class GenericModel:
    """ 
        Attributes:
            flops_per_sample (float): Forward FLOPs per sample
            params (float): Parameters
            activation_bytes_per_sample (float | Unset): Activation memory per sample in bytes Default: 0.0.
            name (str | Unset):  Default: 'custom model'.
     """

    flops_per_sample: float
    params: float
    activation_bytes_per_sample: float | Unset = 0.0
    name: str | Unset = 'custom model'





    def to_dict(self) -> dict[str, Any]:
        flops_per_sample = self.flops_per_sample

        params = self.params

        activation_bytes_per_sample = self.activation_bytes_per_sample

        name = self.name


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "flops_per_sample": flops_per_sample,
            "params": params,
        })
        if activation_bytes_per_sample is not UNSET:
            field_dict["activation_bytes_per_sample"] = activation_bytes_per_sample
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        flops_per_sample = d.pop("flops_per_sample")

        params = d.pop("params")

        activation_bytes_per_sample = d.pop("activation_bytes_per_sample", UNSET)

        name = d.pop("name", UNSET)

        generic_model = cls(
            flops_per_sample=flops_per_sample,
            params=params,
            activation_bytes_per_sample=activation_bytes_per_sample,
            name=name,
        )

        return generic_model

