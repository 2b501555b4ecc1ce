from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="EstimateGoodput")



@_attrs_define
class EstimateGoodput:
    """ 
        Attributes:
            checkpoint_interval_hours (float): Young/Daly sqrt(2 x write time x MTBF)
            checkpoint_size_gb (float):
            checkpoint_write_s (float):
            expected_interruptions (float):
            goodput (float): Useful training time over wall clock, 0-1
            interruptions_per_day (float):
            restart_s (float):
            useful_hours (float):
            work_done (float): Tokens (transformers) or samples trained in the duration, failures excluded
     """

    checkpoint_interval_hours: float
    checkpoint_size_gb: float
    checkpoint_write_s: float
    expected_interruptions: float
    goodput: float
    interruptions_per_day: float
    restart_s: float
    useful_hours: float
    work_done: float





    def to_dict(self) -> dict[str, Any]:
        checkpoint_interval_hours = self.checkpoint_interval_hours

        checkpoint_size_gb = self.checkpoint_size_gb

        checkpoint_write_s = self.checkpoint_write_s

        expected_interruptions = self.expected_interruptions

        goodput = self.goodput

        interruptions_per_day = self.interruptions_per_day

        restart_s = self.restart_s

        useful_hours = self.useful_hours

        work_done = self.work_done


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "checkpoint_interval_hours": checkpoint_interval_hours,
            "checkpoint_size_gb": checkpoint_size_gb,
            "checkpoint_write_s": checkpoint_write_s,
            "expected_interruptions": expected_interruptions,
            "goodput": goodput,
            "interruptions_per_day": interruptions_per_day,
            "restart_s": restart_s,
            "useful_hours": useful_hours,
            "work_done": work_done,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        checkpoint_interval_hours = d.pop("checkpoint_interval_hours")

        checkpoint_size_gb = d.pop("checkpoint_size_gb")

        checkpoint_write_s = d.pop("checkpoint_write_s")

        expected_interruptions = d.pop("expected_interruptions")

        goodput = d.pop("goodput")

        interruptions_per_day = d.pop("interruptions_per_day")

        restart_s = d.pop("restart_s")

        useful_hours = d.pop("useful_hours")

        work_done = d.pop("work_done")

        estimate_goodput = cls(
            checkpoint_interval_hours=checkpoint_interval_hours,
            checkpoint_size_gb=checkpoint_size_gb,
            checkpoint_write_s=checkpoint_write_s,
            expected_interruptions=expected_interruptions,
            goodput=goodput,
            interruptions_per_day=interruptions_per_day,
            restart_s=restart_s,
            useful_hours=useful_hours,
            work_done=work_done,
        )

        return estimate_goodput

