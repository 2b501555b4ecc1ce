from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.collective_algorithm_used import CollectiveAlgorithmUsed
from ..models.collective_calibration import CollectiveCalibration
from typing import cast

if TYPE_CHECKING:
  from ..models.collective_intervals import CollectiveIntervals





T = TypeVar("T", bound="Collective")



@_attrs_define
class Collective:
    """ 
        Attributes:
            algbw_gbs (float): S / time, GB/s (bytes)
            algorithm (str): The algorithm asked for
            algorithm_used (CollectiveAlgorithmUsed): The algorithm that ran: what auto chose (ring, tree, nvls, nvls_tree,
                collnet), or p2p for all_to_all and p2p, which NCCL sends point to point
            busbw_gbs (float): nccl-tests bus bandwidth, GB/s (bytes)
            calibration (CollectiveCalibration): calibrated: measured rows exist for this GPU and this fabric; extrapolated:
                not, and the intervals are widened
            intervals (CollectiveIntervals): p10-p90 of each headline figure from the model's error on published
                measurements by category (split-conformal, catalog/data/uncertainty.yaml), widened for an extrapolated
                configuration by a prior on the constants marked estimate; total: the price of a run of each end of
                time_to_train_hours's interval, billed by the term's rule, at the term, currency and prices of the document it
                is in (a quote's own, a re-priced quote's new ones), p10 rounded down and p90 up to 4 significant digits so that
                the range holds the total shown to the cent (a range of the model's uncertainty, not a charge)
            operation (str):
            ranks (int):
            size_bytes (int):
            time_s (float):
     """

    algbw_gbs: float
    algorithm: str
    algorithm_used: CollectiveAlgorithmUsed
    busbw_gbs: float
    calibration: CollectiveCalibration
    intervals: CollectiveIntervals
    operation: str
    ranks: int
    size_bytes: int
    time_s: float





    def to_dict(self) -> dict[str, Any]:
        from ..models.collective_intervals import CollectiveIntervals # noqa: PLC0415
        algbw_gbs = self.algbw_gbs

        algorithm = self.algorithm

        algorithm_used = self.algorithm_used.value

        busbw_gbs = self.busbw_gbs

        calibration = self.calibration.value

        intervals = self.intervals.to_dict()

        operation = self.operation

        ranks = self.ranks

        size_bytes = self.size_bytes

        time_s = self.time_s


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "algbw_gbs": algbw_gbs,
            "algorithm": algorithm,
            "algorithm_used": algorithm_used,
            "busbw_gbs": busbw_gbs,
            "calibration": calibration,
            "intervals": intervals,
            "operation": operation,
            "ranks": ranks,
            "size_bytes": size_bytes,
            "time_s": time_s,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.collective_intervals import CollectiveIntervals # noqa: PLC0415
        d = dict(src_dict)
        algbw_gbs = d.pop("algbw_gbs")

        algorithm = d.pop("algorithm")

        algorithm_used = CollectiveAlgorithmUsed(d.pop("algorithm_used"))




        busbw_gbs = d.pop("busbw_gbs")

        calibration = CollectiveCalibration(d.pop("calibration"))




        intervals = CollectiveIntervals.from_dict(d.pop("intervals"))




        operation = d.pop("operation")

        ranks = d.pop("ranks")

        size_bytes = d.pop("size_bytes")

        time_s = d.pop("time_s")

        collective = cls(
            algbw_gbs=algbw_gbs,
            algorithm=algorithm,
            algorithm_used=algorithm_used,
            busbw_gbs=busbw_gbs,
            calibration=calibration,
            intervals=intervals,
            operation=operation,
            ranks=ranks,
            size_bytes=size_bytes,
            time_s=time_s,
        )

        return collective

