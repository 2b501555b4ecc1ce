from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.ranked_configuration_calibration import RankedConfigurationCalibration
from typing import cast

if TYPE_CHECKING:
  from ..models.breakdown import Breakdown
  from ..models.fabric_ref import FabricRef
  from ..models.goodput import Goodput
  from ..models.memory import Memory
  from ..models.ranked_configuration_intervals import RankedConfigurationIntervals
  from ..models.result_layout import ResultLayout
  from ..models.server_ref import ServerRef
  from ..models.sizing_price import SizingPrice
  from ..models.stock_view import StockView





T = TypeVar("T", bound="RankedConfiguration")



@_attrs_define
class RankedConfiguration:
    """ 
        Attributes:
            assumptions (list[str]):
            bottleneck (str):
            breakdown (Breakdown):
            calibration (RankedConfigurationCalibration): calibrated: measured rows exist for this GPU and this fabric;
                extrapolated: not, and the intervals are widened
            communication_share (float):
            efficiency_vs_one_node (float | None): Throughput per GPU over that of the server's fastest layout on one node
                that fits (efficiency_series.one_node_layout): one scale for every fabric and node count; null where no one-node
                layout fits in memory (efficiency_series.one_node_fits_memory false), as there is no one-node run to compare
                with. It compares layouts as well as node counts, so it exceeds 1 where more nodes let a layout shard less (less
                tensor or pipeline parallelism, less recomputation) than one node's memory forces; the notes then say so
            fabric (FabricRef):
            global_batch (int):
            goodput (Goodput):
            gpu (str):
            gpus (int):
            hot_spare_nodes (int): Spare nodes the ranking keeps ready beside the job, billed in the price: taken where they
                better the objective by more than the policy's preference_tolerance (0: none)
            intervals (RankedConfigurationIntervals): p10-p90 of each headline figure from the model's error on published
                measurements by category (split-conformal, catalog/data/uncertainty.yaml), widened for an extrapolated
                configuration by a prior on the constants marked estimate; total: the price of a run of each end of
                time_to_train_hours's interval, billed by the term's rule, at the term, currency and prices of the document it
                is in (a quote's own, a re-priced quote's new ones), p10 rounded down and p90 up to 4 significant digits so that
                the range holds the total shown to the cent (a range of the model's uncertainty, not a charge)
            layout (ResultLayout):
            memory (Memory):
            mfu (float):
            mfu_causal (float | None): Model FLOPs utilisation counting half the score matrix of a causal model (Megatron-LM
                logs since 2025-03, Megatron-Bridge), beside mfu's whole-matrix convention; null for results stored before it
            network_note (str): How this configuration's fabric stands against the network advice
            nics_per_node (int):
            nodes (int):
            oversubscription (float):
            price (SizingPrice):
            rank (int):
            region (str):
            samples_per_s (float):
            scaling_efficiency (float): Share of the predicted step time spent on GPU work: the compute (activation
                recomputation included) and the optimizer step, over the step time; the rest is exposed communication, pipeline
                bubble, stragglers and the overlap slowdown. 1.0 is a step with no such overhead, not perfectly linear scaling:
                recomputed FLOPs count as work. efficiency_vs_one_node compares throughput per GPU with one node's
            server (ServerRef):
            step_time_s (float):
            stock (StockView):
            time_to_train_hours (float): Wall clock of the work with checkpoints, interruptions and restarts (goodput), or
                the duration given; what the price bills
            tokens_per_s (float | None):
            why (str): Why it ranks where it does
     """

    assumptions: list[str]
    bottleneck: str
    breakdown: Breakdown
    calibration: RankedConfigurationCalibration
    communication_share: float
    efficiency_vs_one_node: float | None
    fabric: FabricRef
    global_batch: int
    goodput: Goodput
    gpu: str
    gpus: int
    hot_spare_nodes: int
    intervals: RankedConfigurationIntervals
    layout: ResultLayout
    memory: Memory
    mfu: float
    mfu_causal: float | None
    network_note: str
    nics_per_node: int
    nodes: int
    oversubscription: float
    price: SizingPrice
    rank: int
    region: str
    samples_per_s: float
    scaling_efficiency: float
    server: ServerRef
    step_time_s: float
    stock: StockView
    time_to_train_hours: float
    tokens_per_s: float | None
    why: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.breakdown import Breakdown # noqa: PLC0415
        from ..models.fabric_ref import FabricRef # noqa: PLC0415
        from ..models.goodput import Goodput # noqa: PLC0415
        from ..models.memory import Memory # noqa: PLC0415
        from ..models.ranked_configuration_intervals import RankedConfigurationIntervals # noqa: PLC0415
        from ..models.result_layout import ResultLayout # noqa: PLC0415
        from ..models.server_ref import ServerRef # noqa: PLC0415
        from ..models.sizing_price import SizingPrice # noqa: PLC0415
        from ..models.stock_view import StockView # noqa: PLC0415
        assumptions = self.assumptions



        bottleneck = self.bottleneck

        breakdown = self.breakdown.to_dict()

        calibration = self.calibration.value

        communication_share = self.communication_share

        efficiency_vs_one_node: float | None
        efficiency_vs_one_node = self.efficiency_vs_one_node

        fabric = self.fabric.to_dict()

        global_batch = self.global_batch

        goodput = self.goodput.to_dict()

        gpu = self.gpu

        gpus = self.gpus

        hot_spare_nodes = self.hot_spare_nodes

        intervals = self.intervals.to_dict()

        layout = self.layout.to_dict()

        memory = self.memory.to_dict()

        mfu = self.mfu

        mfu_causal: float | None
        mfu_causal = self.mfu_causal

        network_note = self.network_note

        nics_per_node = self.nics_per_node

        nodes = self.nodes

        oversubscription = self.oversubscription

        price = self.price.to_dict()

        rank = self.rank

        region = self.region

        samples_per_s = self.samples_per_s

        scaling_efficiency = self.scaling_efficiency

        server = self.server.to_dict()

        step_time_s = self.step_time_s

        stock = self.stock.to_dict()

        time_to_train_hours = self.time_to_train_hours

        tokens_per_s: float | None
        tokens_per_s = self.tokens_per_s

        why = self.why


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "assumptions": assumptions,
            "bottleneck": bottleneck,
            "breakdown": breakdown,
            "calibration": calibration,
            "communication_share": communication_share,
            "efficiency_vs_one_node": efficiency_vs_one_node,
            "fabric": fabric,
            "global_batch": global_batch,
            "goodput": goodput,
            "gpu": gpu,
            "gpus": gpus,
            "hot_spare_nodes": hot_spare_nodes,
            "intervals": intervals,
            "layout": layout,
            "memory": memory,
            "mfu": mfu,
            "mfu_causal": mfu_causal,
            "network_note": network_note,
            "nics_per_node": nics_per_node,
            "nodes": nodes,
            "oversubscription": oversubscription,
            "price": price,
            "rank": rank,
            "region": region,
            "samples_per_s": samples_per_s,
            "scaling_efficiency": scaling_efficiency,
            "server": server,
            "step_time_s": step_time_s,
            "stock": stock,
            "time_to_train_hours": time_to_train_hours,
            "tokens_per_s": tokens_per_s,
            "why": why,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.breakdown import Breakdown # noqa: PLC0415
        from ..models.fabric_ref import FabricRef # noqa: PLC0415
        from ..models.goodput import Goodput # noqa: PLC0415
        from ..models.memory import Memory # noqa: PLC0415
        from ..models.ranked_configuration_intervals import RankedConfigurationIntervals # noqa: PLC0415
        from ..models.result_layout import ResultLayout # noqa: PLC0415
        from ..models.server_ref import ServerRef # noqa: PLC0415
        from ..models.sizing_price import SizingPrice # noqa: PLC0415
        from ..models.stock_view import StockView # noqa: PLC0415
        d = dict(src_dict)
        assumptions = cast(list[str], d.pop("assumptions"))


        bottleneck = d.pop("bottleneck")

        breakdown = Breakdown.from_dict(d.pop("breakdown"))




        calibration = RankedConfigurationCalibration(d.pop("calibration"))




        communication_share = d.pop("communication_share")

        def _parse_efficiency_vs_one_node(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        efficiency_vs_one_node = _parse_efficiency_vs_one_node(d.pop("efficiency_vs_one_node"))


        fabric = FabricRef.from_dict(d.pop("fabric"))




        global_batch = d.pop("global_batch")

        goodput = Goodput.from_dict(d.pop("goodput"))




        gpu = d.pop("gpu")

        gpus = d.pop("gpus")

        hot_spare_nodes = d.pop("hot_spare_nodes")

        intervals = RankedConfigurationIntervals.from_dict(d.pop("intervals"))




        layout = ResultLayout.from_dict(d.pop("layout"))




        memory = Memory.from_dict(d.pop("memory"))




        mfu = d.pop("mfu")

        def _parse_mfu_causal(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        mfu_causal = _parse_mfu_causal(d.pop("mfu_causal"))


        network_note = d.pop("network_note")

        nics_per_node = d.pop("nics_per_node")

        nodes = d.pop("nodes")

        oversubscription = d.pop("oversubscription")

        price = SizingPrice.from_dict(d.pop("price"))




        rank = d.pop("rank")

        region = d.pop("region")

        samples_per_s = d.pop("samples_per_s")

        scaling_efficiency = d.pop("scaling_efficiency")

        server = ServerRef.from_dict(d.pop("server"))




        step_time_s = d.pop("step_time_s")

        stock = StockView.from_dict(d.pop("stock"))




        time_to_train_hours = d.pop("time_to_train_hours")

        def _parse_tokens_per_s(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        tokens_per_s = _parse_tokens_per_s(d.pop("tokens_per_s"))


        why = d.pop("why")

        ranked_configuration = cls(
            assumptions=assumptions,
            bottleneck=bottleneck,
            breakdown=breakdown,
            calibration=calibration,
            communication_share=communication_share,
            efficiency_vs_one_node=efficiency_vs_one_node,
            fabric=fabric,
            global_batch=global_batch,
            goodput=goodput,
            gpu=gpu,
            gpus=gpus,
            hot_spare_nodes=hot_spare_nodes,
            intervals=intervals,
            layout=layout,
            memory=memory,
            mfu=mfu,
            mfu_causal=mfu_causal,
            network_note=network_note,
            nics_per_node=nics_per_node,
            nodes=nodes,
            oversubscription=oversubscription,
            price=price,
            rank=rank,
            region=region,
            samples_per_s=samples_per_s,
            scaling_efficiency=scaling_efficiency,
            server=server,
            step_time_s=step_time_s,
            stock=stock,
            time_to_train_hours=time_to_train_hours,
            tokens_per_s=tokens_per_s,
            why=why,
        )

        return ranked_configuration

