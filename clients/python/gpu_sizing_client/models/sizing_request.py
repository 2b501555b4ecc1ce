from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.sizing_request_objective import SizingRequestObjective
from ..models.sizing_request_precision import SizingRequestPrecision
from ..models.sizing_request_term import SizingRequestTerm
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.fixed_layout import FixedLayout
  from ..models.node_range import NodeRange
  from ..models.workload import Workload





T = TypeVar("T", bound="SizingRequest")



@_attrs_define
class SizingRequest:
    """ 
        Attributes:
            workload (Workload):
            budget_per_month (str | Unset): An amount as a decimal string Example: 250000.00.
            budget_total (str | Unset): An amount as a decimal string Example: 250000.00.
            currency (str | Unset):  Default: 'USD'.
            duration_days (float | Unset): Deadline; alone, size for the most work done in this time
            epochs (float | Unset): Passes over the samples (sample-based models only); default 1
            fabrics_exclude (list[str] | Unset):
            fabrics_include (list[str] | Unset):
            global_batch (int | Unset): Samples per optimizer step; default about 4M tokens (transformers) or 1024 samples,
                rounded per layout up to 4x that (catalog policy max_batch_growth); a given batch is kept exactly
            gpu_models (list[str] | Unset): GPU ids to consider; default any
            gpus_per_node (int | Unset):
            layout (FixedLayout | None | Unset): Fixed parallel degrees; null searches
            max_lead_time_days (int | Unset): Rule out servers the region cannot deliver within this Default: 30.
            max_results (int | Unset):  Default: 10.
            nodes (NodeRange | Unset):
            objective (SizingRequestObjective | Unset):  Default: SizingRequestObjective.BALANCED.
            precision (SizingRequestPrecision | Unset):  Default: SizingRequestPrecision.BF16.
            rdma_required (bool | Unset):  Default: False.
            region (str | Unset):  Default: 'us-east'.
            samples (float | Unset): Samples per epoch (sample-based models only: generic models and CNN presets); a CNN
                preset given only epochs trains on its dataset (GET /v1/presets: samples_per_epoch)
            term (SizingRequestTerm | Unset):  Default: SizingRequestTerm.MONTHLY.
            tokens (float | Unset): Tokens to train (transformers only) Example: 1000000000000.0.
     """

    workload: Workload
    budget_per_month: str | Unset = UNSET
    budget_total: str | Unset = UNSET
    currency: str | Unset = 'USD'
    duration_days: float | Unset = UNSET
    epochs: float | Unset = UNSET
    fabrics_exclude: list[str] | Unset = UNSET
    fabrics_include: list[str] | Unset = UNSET
    global_batch: int | Unset = UNSET
    gpu_models: list[str] | Unset = UNSET
    gpus_per_node: int | Unset = UNSET
    layout: FixedLayout | None | Unset = UNSET
    max_lead_time_days: int | Unset = 30
    max_results: int | Unset = 10
    nodes: NodeRange | Unset = UNSET
    objective: SizingRequestObjective | Unset = SizingRequestObjective.BALANCED
    precision: SizingRequestPrecision | Unset = SizingRequestPrecision.BF16
    rdma_required: bool | Unset = False
    region: str | Unset = 'us-east'
    samples: float | Unset = UNSET
    term: SizingRequestTerm | Unset = SizingRequestTerm.MONTHLY
    tokens: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.fixed_layout import FixedLayout # noqa: PLC0415
        from ..models.node_range import NodeRange # noqa: PLC0415
        from ..models.workload import Workload # noqa: PLC0415
        workload = self.workload.to_dict()

        budget_per_month = self.budget_per_month

        budget_total = self.budget_total

        currency = self.currency

        duration_days = self.duration_days

        epochs = self.epochs

        fabrics_exclude: list[str] | Unset = UNSET
        if not isinstance(self.fabrics_exclude, Unset):
            fabrics_exclude = self.fabrics_exclude



        fabrics_include: list[str] | Unset = UNSET
        if not isinstance(self.fabrics_include, Unset):
            fabrics_include = self.fabrics_include



        global_batch = self.global_batch

        gpu_models: list[str] | Unset = UNSET
        if not isinstance(self.gpu_models, Unset):
            gpu_models = self.gpu_models



        gpus_per_node = self.gpus_per_node

        layout: dict[str, Any] | None | Unset
        if isinstance(self.layout, Unset):
            layout = UNSET
        elif isinstance(self.layout, FixedLayout):
            layout = self.layout.to_dict()
        else:
            layout = self.layout

        max_lead_time_days = self.max_lead_time_days

        max_results = self.max_results

        nodes: dict[str, Any] | Unset = UNSET
        if not isinstance(self.nodes, Unset):
            nodes = self.nodes.to_dict()

        objective: str | Unset = UNSET
        if not isinstance(self.objective, Unset):
            objective = self.objective.value


        precision: str | Unset = UNSET
        if not isinstance(self.precision, Unset):
            precision = self.precision.value


        rdma_required = self.rdma_required

        region = self.region

        samples = self.samples

        term: str | Unset = UNSET
        if not isinstance(self.term, Unset):
            term = self.term.value


        tokens = self.tokens


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "workload": workload,
        })
        if budget_per_month is not UNSET:
            field_dict["budget_per_month"] = budget_per_month
        if budget_total is not UNSET:
            field_dict["budget_total"] = budget_total
        if currency is not UNSET:
            field_dict["currency"] = currency
        if duration_days is not UNSET:
            field_dict["duration_days"] = duration_days
        if epochs is not UNSET:
            field_dict["epochs"] = epochs
        if fabrics_exclude is not UNSET:
            field_dict["fabrics_exclude"] = fabrics_exclude
        if fabrics_include is not UNSET:
            field_dict["fabrics_include"] = fabrics_include
        if global_batch is not UNSET:
            field_dict["global_batch"] = global_batch
        if gpu_models is not UNSET:
            field_dict["gpu_models"] = gpu_models
        if gpus_per_node is not UNSET:
            field_dict["gpus_per_node"] = gpus_per_node
        if layout is not UNSET:
            field_dict["layout"] = layout
        if max_lead_time_days is not UNSET:
            field_dict["max_lead_time_days"] = max_lead_time_days
        if max_results is not UNSET:
            field_dict["max_results"] = max_results
        if nodes is not UNSET:
            field_dict["nodes"] = nodes
        if objective is not UNSET:
            field_dict["objective"] = objective
        if precision is not UNSET:
            field_dict["precision"] = precision
        if rdma_required is not UNSET:
            field_dict["rdma_required"] = rdma_required
        if region is not UNSET:
            field_dict["region"] = region
        if samples is not UNSET:
            field_dict["samples"] = samples
        if term is not UNSET:
            field_dict["term"] = term
        if tokens is not UNSET:
            field_dict["tokens"] = tokens

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fixed_layout import FixedLayout # noqa: PLC0415
        from ..models.node_range import NodeRange # noqa: PLC0415
        from ..models.workload import Workload # noqa: PLC0415
        d = dict(src_dict)
        workload = Workload.from_dict(d.pop("workload"))




        budget_per_month = d.pop("budget_per_month", UNSET)

        budget_total = d.pop("budget_total", UNSET)

        currency = d.pop("currency", UNSET)

        duration_days = d.pop("duration_days", UNSET)

        epochs = d.pop("epochs", UNSET)

        fabrics_exclude = cast(list[str], d.pop("fabrics_exclude", UNSET))


        fabrics_include = cast(list[str], d.pop("fabrics_include", UNSET))


        global_batch = d.pop("global_batch", UNSET)

        gpu_models = cast(list[str], d.pop("gpu_models", UNSET))


        gpus_per_node = d.pop("gpus_per_node", UNSET)

        def _parse_layout(data: object) -> FixedLayout | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                layout_type_0 = FixedLayout.from_dict(data)



                return layout_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FixedLayout | None | Unset, data)

        layout = _parse_layout(d.pop("layout", UNSET))


        max_lead_time_days = d.pop("max_lead_time_days", UNSET)

        max_results = d.pop("max_results", UNSET)

        _nodes = d.pop("nodes", UNSET)
        nodes: NodeRange | Unset
        if isinstance(_nodes,  Unset):
            nodes = UNSET
        else:
            nodes = NodeRange.from_dict(_nodes)




        _objective = d.pop("objective", UNSET)
        objective: SizingRequestObjective | Unset
        if isinstance(_objective,  Unset):
            objective = UNSET
        else:
            objective = SizingRequestObjective(_objective)




        _precision = d.pop("precision", UNSET)
        precision: SizingRequestPrecision | Unset
        if isinstance(_precision,  Unset):
            precision = UNSET
        else:
            precision = SizingRequestPrecision(_precision)




        rdma_required = d.pop("rdma_required", UNSET)

        region = d.pop("region", UNSET)

        samples = d.pop("samples", UNSET)

        _term = d.pop("term", UNSET)
        term: SizingRequestTerm | Unset
        if isinstance(_term,  Unset):
            term = UNSET
        else:
            term = SizingRequestTerm(_term)




        tokens = d.pop("tokens", UNSET)

        sizing_request = cls(
            workload=workload,
            budget_per_month=budget_per_month,
            budget_total=budget_total,
            currency=currency,
            duration_days=duration_days,
            epochs=epochs,
            fabrics_exclude=fabrics_exclude,
            fabrics_include=fabrics_include,
            global_batch=global_batch,
            gpu_models=gpu_models,
            gpus_per_node=gpus_per_node,
            layout=layout,
            max_lead_time_days=max_lead_time_days,
            max_results=max_results,
            nodes=nodes,
            objective=objective,
            precision=precision,
            rdma_required=rdma_required,
            region=region,
            samples=samples,
            term=term,
            tokens=tokens,
        )

        return sizing_request

