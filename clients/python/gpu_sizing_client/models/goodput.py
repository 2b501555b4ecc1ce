from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.hot_spares import HotSpares





T = TypeVar("T", bound="Goodput")



@_attrs_define
class Goodput:
    """ 
        Attributes:
            checkpoint_interval_hours (float): Training between checkpoints, Young/Daly sqrt(2 x write time x MTBF)
            checkpoint_size_gb (float): Weights and optimizer state
            checkpoint_write_s (float): At the storage offer's throughput (per node, capped by its total)
            expected_interruptions (float): Over the whole wall clock
            goodput (float): Useful training time over wall clock, 0-1
            hot_spares (HotSpares):
            interruptions_per_day (float): Expected job interruptions per day from GPUs, hosts and NIC links, the links
                weighted by the fabric's stability class (catalog reliability.yaml, Llama 3 Table 5)
            mean_time_between_interruptions_hours (float):
            restart_s (float): Per interruption: rescheduling, warm-up and reloading the checkpoint
            storage_needed_gbs (float): Checkpoint throughput at which writing checkpoints takes the policy's share of the
                run (policy.yaml checkpoint_time_share)
            storage_offer_gbs (float): What the storage offer gives this job
            time_to_train_without_failures_hours (float | None): The work at the model's throughput with nothing failing;
                null for a duration
            work_done (float): Tokens (transformers) or samples trained in time_to_train_hours, failures counted: the work
                asked, or what a duration given gets done
     """

    checkpoint_interval_hours: float
    checkpoint_size_gb: float
    checkpoint_write_s: float
    expected_interruptions: float
    goodput: float
    hot_spares: HotSpares
    interruptions_per_day: float
    mean_time_between_interruptions_hours: float
    restart_s: float
    storage_needed_gbs: float
    storage_offer_gbs: float
    time_to_train_without_failures_hours: float | None
    work_done: float





    def to_dict(self) -> dict[str, Any]:
        from ..models.hot_spares import HotSpares # noqa: PLC0415
        checkpoint_interval_hours = self.checkpoint_interval_hours

        checkpoint_size_gb = self.checkpoint_size_gb

        checkpoint_write_s = self.checkpoint_write_s

        expected_interruptions = self.expected_interruptions

        goodput = self.goodput

        hot_spares = self.hot_spares.to_dict()

        interruptions_per_day = self.interruptions_per_day

        mean_time_between_interruptions_hours = self.mean_time_between_interruptions_hours

        restart_s = self.restart_s

        storage_needed_gbs = self.storage_needed_gbs

        storage_offer_gbs = self.storage_offer_gbs

        time_to_train_without_failures_hours: float | None
        time_to_train_without_failures_hours = self.time_to_train_without_failures_hours

        work_done = self.work_done


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "checkpoint_interval_hours": checkpoint_interval_hours,
            "checkpoint_size_gb": checkpoint_size_gb,
            "checkpoint_write_s": checkpoint_write_s,
            "expected_interruptions": expected_interruptions,
            "goodput": goodput,
            "hot_spares": hot_spares,
            "interruptions_per_day": interruptions_per_day,
            "mean_time_between_interruptions_hours": mean_time_between_interruptions_hours,
            "restart_s": restart_s,
            "storage_needed_gbs": storage_needed_gbs,
            "storage_offer_gbs": storage_offer_gbs,
            "time_to_train_without_failures_hours": time_to_train_without_failures_hours,
            "work_done": work_done,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.hot_spares import HotSpares # noqa: PLC0415
        d = dict(src_dict)
        checkpoint_interval_hours = d.pop("checkpoint_interval_hours")

        checkpoint_size_gb = d.pop("checkpoint_size_gb")

        checkpoint_write_s = d.pop("checkpoint_write_s")

        expected_interruptions = d.pop("expected_interruptions")

        goodput = d.pop("goodput")

        hot_spares = HotSpares.from_dict(d.pop("hot_spares"))




        interruptions_per_day = d.pop("interruptions_per_day")

        mean_time_between_interruptions_hours = d.pop("mean_time_between_interruptions_hours")

        restart_s = d.pop("restart_s")

        storage_needed_gbs = d.pop("storage_needed_gbs")

        storage_offer_gbs = d.pop("storage_offer_gbs")

        def _parse_time_to_train_without_failures_hours(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        time_to_train_without_failures_hours = _parse_time_to_train_without_failures_hours(d.pop("time_to_train_without_failures_hours"))


        work_done = d.pop("work_done")

        goodput = cls(
            checkpoint_interval_hours=checkpoint_interval_hours,
            checkpoint_size_gb=checkpoint_size_gb,
            checkpoint_write_s=checkpoint_write_s,
            expected_interruptions=expected_interruptions,
            goodput=goodput,
            hot_spares=hot_spares,
            interruptions_per_day=interruptions_per_day,
            mean_time_between_interruptions_hours=mean_time_between_interruptions_hours,
            restart_s=restart_s,
            storage_needed_gbs=storage_needed_gbs,
            storage_offer_gbs=storage_offer_gbs,
            time_to_train_without_failures_hours=time_to_train_without_failures_hours,
            work_done=work_done,
        )

        return goodput

