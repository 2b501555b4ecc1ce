from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="HotSpares")



@_attrs_define
class HotSpares:
    """ 
        Attributes:
            difference (str): total less the configuration's price without spares; negative when the time saved pays for the
                spares
            extra_monthly (str): What the spare nodes add to the term's rate per month, before tax
            goodput (float):
            not_offered_reason (None | str): Why none can be offered, with the nodes the job uses, the nodes the stock can
                deliver and the spares the policy would keep; null when offered
            offered (bool): False when the stock (with what arrives within max_lead_time_days) has no node left beside the
                job for spares: then spare_nodes is 0, goodput, time_to_train_hours, work_done and total are the configuration's
                own without spares, and difference and extra_monthly are 0
            spare_nodes (int): Nodes kept ready beside the job (reliability.yaml hot_spare_share, at least one); 0 when not
                offered
            time_to_train_hours (float): With the spares: the work with failures, or the duration given
            total (str): The training's price with the spare nodes, before tax
            work_done (float): Tokens or samples trained in that time
     """

    difference: str
    extra_monthly: str
    goodput: float
    not_offered_reason: None | str
    offered: bool
    spare_nodes: int
    time_to_train_hours: float
    total: str
    work_done: float





    def to_dict(self) -> dict[str, Any]:
        difference = self.difference

        extra_monthly = self.extra_monthly

        goodput = self.goodput

        not_offered_reason: None | str
        not_offered_reason = self.not_offered_reason

        offered = self.offered

        spare_nodes = self.spare_nodes

        time_to_train_hours = self.time_to_train_hours

        total = self.total

        work_done = self.work_done


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "difference": difference,
            "extra_monthly": extra_monthly,
            "goodput": goodput,
            "not_offered_reason": not_offered_reason,
            "offered": offered,
            "spare_nodes": spare_nodes,
            "time_to_train_hours": time_to_train_hours,
            "total": total,
            "work_done": work_done,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        difference = d.pop("difference")

        extra_monthly = d.pop("extra_monthly")

        goodput = d.pop("goodput")

        def _parse_not_offered_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        not_offered_reason = _parse_not_offered_reason(d.pop("not_offered_reason"))


        offered = d.pop("offered")

        spare_nodes = d.pop("spare_nodes")

        time_to_train_hours = d.pop("time_to_train_hours")

        total = d.pop("total")

        work_done = d.pop("work_done")

        hot_spares = cls(
            difference=difference,
            extra_monthly=extra_monthly,
            goodput=goodput,
            not_offered_reason=not_offered_reason,
            offered=offered,
            spare_nodes=spare_nodes,
            time_to_train_hours=time_to_train_hours,
            total=total,
            work_done=work_done,
        )

        return hot_spares

