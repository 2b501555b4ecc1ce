"""A sizing's result as typed values: the one definition of what is stored, shown and quoted."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

from sizing.advice import ChecklistItem
from sizing.series import FabricLine
from sizing.step import SCALING_EFFICIENCY_MEANS
from sizing.workload import Layout


def described(text: str, **more) -> dict:
    return {"metadata": {"description": text, **more}}


# The reference is the server's fastest one-node layout, not the compared configuration's own:
# more nodes can let a layout shard less than one node must, so the ratio can pass 1.
ONE_NODE_MEANS = (
    "Throughput per GPU over that of the server's fastest layout on one node that fits "
    "(efficiency_series.one_node_layout): one scale for every fabric and node count; null "
    "where no one-node layout fits in memory (efficiency_series.one_node_fits_memory false), "
    "as there is no one-node run to compare with. It compares layouts as well as node "
    "counts, so it exceeds 1 where more nodes let a layout shard less (less tensor or "
    "pipeline parallelism, less recomputation) than one node's memory forces; the notes then "
    "say so")


@dataclass(frozen=True)
class ServerRef:
    id: str
    name: str


@dataclass(frozen=True)
class FabricRef:
    id: str
    name: str
    kind: str
    rdma: bool
    gpudirect_rdma: bool


@dataclass(frozen=True)
class ResultLayout:
    """The layout of a configuration: every field a fixed layout (and an estimate) states,
    with the micro-batch. Results stored before a field existed read it as its default."""

    dp: int
    tp: int
    pp: int
    ep: int
    zero_stage: int
    virtual_stages: int
    micro_batch: int
    sequence_parallel: bool
    recompute: str
    cp: int = 1
    framework: str = "megatron"
    shard_group: int = 0
    offload: str = "none"
    recompute_layers: int = 0
    flash_attention: bool = True
    attention_kernel: str = field(default="flash3", **described(
        "The fused attention kernel the estimate assumes (flash2, flash3 or triton)"))
    fused_cross_entropy: bool = False
    embedding_in_pipeline_split: bool = False
    overlap_grad_reduce: bool = True
    grad_reduce_in_fp32: bool = True
    overlap_param_gather: bool = True
    fp8_param_gather: bool = False
    tp_comm_overlap: bool = False
    grad_bucket_mb: float = field(default=0.0, **described(
        "MB of gradients per data-parallel bucket as stated; 0: the framework's buckets"))

    @classmethod
    def of(cls, layout: Layout, micro_batch: int) -> ResultLayout:
        # By name: the fields are many, and the layout's effective settings (its framework's
        # defaults resolved) go where the result names them.
        return cls(
            dp=layout.dp, tp=layout.tp, pp=layout.pp, ep=layout.ep, zero_stage=layout.zero_stage,
            virtual_stages=layout.virtual_stages, micro_batch=micro_batch,
            sequence_parallel=layout.sequence_parallel, recompute=layout.recompute,
            cp=layout.cp, framework=layout.framework, shard_group=layout.shard_group,
            offload=layout.offload, recompute_layers=layout.recompute_layers,
            flash_attention=layout.flash_attention,
            attention_kernel=layout.fused_attention_kernel,
            fused_cross_entropy=layout.fused_cross_entropy,
            embedding_in_pipeline_split=layout.embedding_in_pipeline_split,
            overlap_grad_reduce=layout.overlaps_gradients,
            grad_reduce_in_fp32=layout.fp32_gradients,
            overlap_param_gather=layout.overlaps_param_gather,
            fp8_param_gather=layout.fp8_param_gather, tp_comm_overlap=layout.tp_comm_overlap,
            grad_bucket_mb=layout.grad_bucket_mb)


@dataclass(frozen=True)
class Breakdown:
    """Seconds per step; compute, the *_exposed_s parts, bubble and straggler add up to the step;
    *_hidden_s overlap compute."""

    compute_s: float
    tp_exposed_s: float
    tp_hidden_s: float
    ep_exposed_s: float
    ep_hidden_s: float
    pp_exposed_s: float
    dp_exposed_s: float
    dp_hidden_s: float
    zero_exposed_s: float
    zero_hidden_s: float
    bubble_s: float
    straggler_s: float
    cp_exposed_s: float = field(**described("Context-parallel K/V exchange not hidden behind "
                                            "attention"))
    offload_exposed_s: float = field(**described("Activation offload traffic not hidden "
                                                 "behind compute"))
    optimizer_s: float = field(**described("Optimizer step (on the GPU, or on the host with "
                                           "offload), after the backward"))
    overlap_slowdown_s: float = field(**described(
        "Compute slowed by the communication hidden behind it (SM and HBM contention)"))
    compute_straggler_s: float = field(**described(
        "Waiting for the slowest GPU's compute: GPUs of one model run at different speeds"))


@dataclass(frozen=True)
class Memory:
    """Per GPU, GB. fits: total plus the policy's headroom within capacity."""

    weights_gb: float
    gradients_gb: float
    optimizer_gb: float
    activations_gb: float
    logits_gb: float = field(**described("16-bit logits and their FP32 copy on the last stage"))
    buffers_gb: float = field(**described("ZeRO-3/FSDP gather and prefetch buffers"))
    reserved_gb: float
    total_gb: float
    capacity_gb: float
    headroom_gb: float = field(**described("Kept free by policy (fragmentation, buffers)"))
    fits: bool = field(**described("total_gb + headroom_gb <= capacity_gb, and "
                                   "host_offload_gb <= host_capacity_gb"))
    margin_gb: float = field(**described("Left beyond the headroom; negative: does not fit"))
    host_offload_gb: float | None = field(default=None, **described(
        "Per node: the optimizer state and activations offload puts in host memory (0 without "
        "offload; null for results stored before it)"))
    host_capacity_gb: float | None = field(default=None, **described(
        "Per node: the host memory offload may use, the policy's share "
        "(host_memory_reserve_share) kept for the OS and the data loader; null where the "
        "server does not state its host memory (not checked)"))

    @classmethod
    def of(cls, memory: dict) -> Memory:
        """An estimate's memory figures (sizing.step.Estimate.memory), the host's capacity
        null where the server states none (the model's inf: no limit)."""
        capacity = memory["host_capacity_gb"]
        return cls(**{**memory, "host_capacity_gb": capacity if math.isfinite(capacity) else None})


@dataclass(frozen=True)
class SizingPrice:
    """The configuration priced by the pricing engine for the training under the term."""

    currency: str
    term: str
    billed_by: Literal["month", "hour"] = field(**described(
        "Whole months at the term's rate, or hours on demand (monthly term, when cheaper)"))
    months_billed: int = field(**described("0 when billed by the hour"))
    hours_billed: int = field(**described("On-demand hours, per started hour; 0 by the month"))
    monthly: Decimal = field(**described("Net per month at the term's rate, after its discount"))
    hourly: Decimal = field(**described("Net per hour on demand"))
    one_time: Decimal
    total: Decimal = field(**described(
        "What the training costs before tax: the billed months or hours plus one-time fees; "
        "a quote of this configuration has this net total"))
    price_per_gpu_hour: Decimal = field(**described(
        "Net price of one GPU-hour at the rate billed (servers, fabric, term discount)"))
    cost_per_million_tokens: Decimal | None = field(**described(
        "total / tokens trained x 1e6 (transformers)"))
    cost_per_million_samples: Decimal | None = field(**described(
        "total / samples trained x 1e6 (sample-based models)"))
    warning: str | None = field(**described(
        "When the committed term does not match the work: it bills much longer than the "
        "training (with the monthly term's price of the run), or the training runs past it "
        "(with the next longer term's price of the run, where there is one)"))
    # Kept exactly: billed by the started hour, 1,715.4 h rounded to 1,715 would bill one hour
    # less at another term than this price's own rule does. Results stored before: None.
    training_hours: float | None = field(default=None, metadata={
        "description": "The wall clock this price bills, unrounded (time_to_train_hours is "
                       "rounded to 4 significant digits): a quote at another term bills it "
                       "again", "digits": 0})


@dataclass(frozen=True)
class StockView:
    """What the region can deliver of this configuration and when."""

    available_now: int = field(**described("Nodes of this server in stock in the region now"))
    from_deliveries: int = field(**described("Nodes of this configuration that come on order"))
    lead_time_days: int
    delivery_date: str = field(**described("When the last node can be handed over (ISO 8601)",
                                           format="date"))
    warning: str | None


@dataclass(frozen=True)
class Interval:
    """The model's 80% prediction interval of a figure: p10 and p90."""

    p10: float
    p90: float


INTERVALS_TEXT = (
    "p10-p90 of each headline figure from the model's error on published measurements by "
    "category (split-conformal, catalog/data/uncertainty.yaml), widened for an extrapolated "
    "configuration by a prior on the constants marked estimate; total: the price of a run of "
    "each end of time_to_train_hours's interval, billed by the term's rule, at the term, "
    "currency and prices of the document it is in (a quote's own, a re-priced quote's new "
    "ones), p10 rounded down and p90 up to 4 significant digits so that the range holds the "
    "total shown to the cent (a range of the model's uncertainty, not a charge)")


@dataclass(frozen=True)
class HotSpares:
    """The priced option of spare nodes kept ready: a failure waits for no replacement."""

    spare_nodes: int = field(**described("Nodes kept ready beside the job (reliability.yaml "
                                         "hot_spare_share, at least one); 0 when not offered"))
    goodput: float
    time_to_train_hours: float = field(**described(
        "With the spares: the work with failures, or the duration given"))
    work_done: float = field(**described("Tokens or samples trained in that time"))
    total: Decimal = field(**described("The training's price with the spare nodes, before tax"))
    difference: Decimal = field(**described(
        "total less the configuration's price without spares; negative when the time saved "
        "pays for the spares"))
    extra_monthly: Decimal = field(**described(
        "What the spare nodes add to the term's rate per month, before tax"))
    # Added after clients were generated from an object that was always there: "none can be
    # offered" is said here rather than by a null. Results stored before: offered.
    offered: bool = field(default=True, **described(
        "False when the stock (with what arrives within max_lead_time_days) has no node left "
        "beside the job for spares: then spare_nodes is 0, goodput, time_to_train_hours, "
        "work_done and total are the configuration's own without spares, and difference and "
        "extra_monthly are 0"))
    not_offered_reason: str | None = field(default=None, **described(
        "Why none can be offered, with the nodes the job uses, the nodes the stock can deliver "
        "and the spares the policy would keep; null when offered"))


@dataclass(frozen=True)
class Goodput:
    """How much of the wall clock survives failures, over the whole training."""

    interruptions_per_day: float = field(**described(
        "Expected job interruptions per day from GPUs, hosts and NIC links, the links weighted "
        "by the fabric's stability class (catalog reliability.yaml, Llama 3 Table 5)"))
    mean_time_between_interruptions_hours: float
    expected_interruptions: float = field(**described("Over the whole wall clock"))
    checkpoint_size_gb: float = field(**described("Weights and optimizer state"))
    checkpoint_write_s: float = field(**described(
        "At the storage offer's throughput (per node, capped by its total)"))
    checkpoint_interval_hours: float = field(**described(
        "Training between checkpoints, Young/Daly sqrt(2 x write time x MTBF)"))
    restart_s: float = field(**described(
        "Per interruption: rescheduling, warm-up and reloading the checkpoint"))
    goodput: float = field(**described("Useful training time over wall clock, 0-1"))
    time_to_train_without_failures_hours: float | None = field(**described(
        "The work at the model's throughput with nothing failing; null for a duration"))
    work_done: float = field(**described(
        "Tokens (transformers) or samples trained in time_to_train_hours, failures counted: "
        "the work asked, or what a duration given gets done"))
    storage_needed_gbs: float = field(**described(
        "Checkpoint throughput at which writing checkpoints takes the policy's share of the run "
        "(policy.yaml checkpoint_time_share)"))
    storage_offer_gbs: float = field(**described("What the storage offer gives this job"))
    hot_spares: HotSpares = field(**described(
        "The same configuration with hot spare nodes, priced; offered false (with the reason) "
        "when the stock has no node left for them"))


@dataclass(frozen=True)
class RankedConfiguration:
    """One configuration of the ranked list, with its numbers, price, stock and reasons."""

    rank: int
    server: ServerRef
    fabric: FabricRef = field(**described(
        "The fabric that joins the nodes. At one node (nodes 1) none is used or billed: the "
        "GPUs talk inside the server, every fabric the server is sold with gives the same "
        "run, and this names the first of them the ranking met, not a recommendation"))
    gpu: str
    region: str
    nodes: int
    gpus: int
    hot_spare_nodes: int = field(**described(
        "Spare nodes the ranking keeps ready beside the job, billed in the price: taken where "
        "they better the objective by more than the policy's preference_tolerance (0: none)"))
    nics_per_node: int
    oversubscription: float
    layout: ResultLayout
    global_batch: int
    step_time_s: float
    breakdown: Breakdown
    tokens_per_s: float | None
    samples_per_s: float
    mfu: float
    scaling_efficiency: float = field(**described(SCALING_EFFICIENCY_MEANS))
    efficiency_vs_one_node: float | None = field(**described(ONE_NODE_MEANS))
    communication_share: float
    time_to_train_hours: float = field(**described(
        "Wall clock of the work with checkpoints, interruptions and restarts (goodput), or the "
        "duration given; what the price bills"))
    price: SizingPrice
    goodput: Goodput
    intervals: dict[str, Interval] = field(**described(INTERVALS_TEXT))
    calibration: Literal["calibrated", "extrapolated"] = field(**described(
        "calibrated: measured rows exist for this GPU and this fabric; extrapolated: not, and "
        "the intervals are widened"))
    memory: Memory
    bottleneck: str
    assumptions: tuple[str, ...]
    stock: StockView
    network_note: str = field(**described("How this configuration's fabric stands against the "
                                          "network advice"))
    why: str = field(**described("Why it ranks where it does"))
    # Last, with a default: results stored before it have none. At long sequences mfu's
    # convention (the whole s x s score matrix) counts twice the attention a causal kernel runs
    # and can pass what the GPU does (0.66 at 128k tokens where this reads 0.42).
    mfu_causal: float | None = field(default=None, metadata={
        "description": "Model FLOPs utilisation counting half the score matrix of a causal "
                       "model (Megatron-LM logs since 2025-03, Megatron-Bridge), beside mfu's "
                       "whole-matrix convention; null for results stored before it"})


@dataclass(frozen=True)
class FabricComparison:
    fabric: str
    fabric_name: str
    scaling_efficiency: float = field(**described(SCALING_EFFICIENCY_MEANS))
    efficiency_vs_one_node: float | None = field(**described(ONE_NODE_MEANS))
    throughput: float
    throughput_unit: str
    communication_share: float
    monthly: Decimal
    goodput: float
    time_to_train_hours: float = field(**described("With failures, as the ranking weighs it"))
    total: Decimal = field(**described("The training's price with failures, before tax"))
    recommended: bool
    oversubscription: float = field(default=1.0, **described(
        "The spine's oversubscription this row was priced and estimated at (n:1)"))


@dataclass(frozen=True)
class WhatIfOption:
    fabric: str
    fabric_name: str
    nodes: int
    monthly: Decimal
    extra_monthly: Decimal = field(**described("Over rank 1, per month"))
    throughput: float
    throughput_gain: float = field(**described("Over rank 1, a fraction"))
    throughput_gain_per_1000: float | None = field(**described(
        "Throughput gained (tokens/s or samples/s) per 1,000 of the currency spent per month"))
    oversubscription: float = field(default=1.0, **described("The spine's ratio (n:1)"))


@dataclass(frozen=True)
class FabricVsMoreGpus:
    """A faster fabric or more nodes for about the same extra money, within the request."""

    currency: str
    upgrade: WhatIfOption | None
    more_nodes: WhatIfOption | None
    upgrade_unavailable: str | None
    more_nodes_unavailable: str | None
    sentence: str


@dataclass(frozen=True)
class NetworkUpgrade:
    """One faster network for rank 1's server and node count, against rank 1."""

    option: WhatIfOption
    what: str = field(**described("What changes: lossless, SHARP, the spine or the fabric"))
    sentence: str


@dataclass(frozen=True)
class NetworkAdvice:
    """Rank 1's fabric and why, from the same options and rule the ranking used."""

    server: str
    server_name: str
    nodes: int
    recommended_fabric: str = field(**described(
        "Rank 1's fabric; when rank 1 runs on one node, where no fabric is used or billed, the "
        "fabric it is listed with (the reason then says no fabric is recommended)"))
    recommended_fabric_name: str
    fabric_class: str
    reason: str
    comparison: tuple[FabricComparison, ...]
    fabric_vs_more_gpus: FabricVsMoreGpus
    roce_checklist: tuple[ChecklistItem, ...] = field(**described(
        "The lossless-Ethernet checklist, when a ranked configuration is on RoCEv2"))
    upgrades: tuple[NetworkUpgrade, ...] = field(default=(), **described(
        "What each faster network option (lossless RoCE, SHARP, a less oversubscribed spine, "
        "another fabric) buys over rank 1 for this job, most throughput per money first: one "
        "line per other fabric at its best-value spine ratio, and rank 1's fabric at each less "
        "oversubscribed spine"))


@dataclass(frozen=True)
class EfficiencySeries:
    """Scaling against node count on rank 1's server, one line per fabric, ready to plot."""

    server: str
    server_name: str
    layout_family: ResultLayout = field(**described(
        "Rank 1's layout, kept at every point; along a line dp follows the node count"))
    layout_family_description: str
    throughput_unit: str
    one_node_throughput_per_gpu: float | None = field(**described(
        "The scale of efficiency_vs_one_node: the throughput per GPU of one_node_layout"))
    one_node_fits_memory: bool = field(**described(
        "Whether one_node_layout fits one node's memory (False: no one-node layout fits, "
        "one_node_throughput_per_gpu is one node's speed as if memory allowed, a run no one "
        "could make, and every efficiency_vs_one_node of the server is null); says nothing of "
        "layout_family, which may not fit one node"))
    one_node_layout: ResultLayout | None = field(**described(
        "The reference of efficiency_vs_one_node: the fastest layout per GPU on one node of "
        "the server (of those that fit, where one does), not necessarily layout_family"))
    one_node_layout_description: str | None
    lines: tuple[FabricLine, ...]


def as_given(text: str) -> dict:
    """A figure the customer gave: stored exactly, not rounded like the model's."""
    return {"metadata": {"description": text, "digits": 0}}


@dataclass(frozen=True)
class WorkloadSummary:
    """The model and the work, as the request gave them."""

    name: str
    kind: Literal["transformer", "generic"]
    # Counted from the model's dimensions, so exact: a quote that writes it in billions must
    # not round an already rounded count (70,553,698,304 stored as 7.055e10 read 70.5 B).
    params: float = field(metadata={"description": "Parameters, counted from the model's "
                                                   "dimensions: exact, not rounded",
                                    "digits": 0})
    tokens: float | None = field(**as_given("Tokens to train"))
    samples_per_epoch: float | None = field(**as_given(
        "Samples per epoch: given, or the preset's dataset"))
    epochs: float | None = field(**as_given("Epochs over those samples"))
    duration_days: float | None = field(**as_given("A deadline, or alone the duration to price"))
    precision: str


@dataclass(frozen=True)
class SizingResult:
    """Ranked configurations, network advice and the efficiency series of one sizing."""

    catalog_version: int
    priced_on: str = field(**described("The day prices and stock were read (ISO 8601)",
                                       format="date"))
    objective: str
    currency: str
    term: str
    region: str
    workload: WorkloadSummary
    candidates_evaluated: int
    candidates_eligible: int
    excluded: dict[str, int] = field(**described("Candidates ruled out, by reason"))
    configurations: tuple[RankedConfiguration, ...]
    rank_one_stable: bool | None = field(**described(
        "Whether rank 1's objective is ahead of rank 2's beyond both p10-p90 intervals; null "
        "with fewer than two configurations"))
    rank_stability: str | None = field(**described("The same in words"))
    network_advice: NetworkAdvice | None
    efficiency_series: EfficiencySeries | None
    notes: tuple[str, ...]


@dataclass(frozen=True)
class SizingError:
    code: str
    detail: str
    errors: tuple[FieldError, ...]


@dataclass(frozen=True)
class FieldError:
    pointer: str
    detail: str
