"""Network advice from the ranking's own options: which fabric, fabric vs more GPUs, RoCEv2 checklist."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from sizing.explain import time_saved


@dataclass(frozen=True)
class ChecklistItem:
    item: str
    why: str
    source: str


# What a RoCEv2 fabric must guarantee to behave like InfiniBand (brief §2.3, with its sources).
ROCE_CHECKLIST = (
    ChecklistItem(
        "PFC end to end on the RoCE priority",
        "RoCEv2 recovers from loss by go-back-N; a dropped packet resends the whole window",
        "NVIDIA Cumulus Linux docs, 'RoCE relies on ECN and PFC to operate'; "
        "Wang et al. ICCCN 2019"),
    ChecklistItem(
        "ECN marking with DCQCN rate control, not pause frames alone",
        "PFC alone causes head-of-line blocking, congestion spreading and pause storms",
        "Mittal et al. SIGCOMM 2018; Guo et al. SIGCOMM 2016; Asterfusion: "
        "'PFC for per-class lossless transport, DCQCN + ECN for per-flow control'"),
    ChecklistItem(
        "Consistent MTU on every hop (RDMA path MTU 4096 on a jumbo Ethernet MTU)",
        "a smaller MTU anywhere fragments messages and lowers goodput",
        "RDMA path MTU 256-4096 B (ib_send_lat table, brief §2.3); jumbo-frame "
        "requirement is a planning assumption, not a vendor quote"),
    ChecklistItem(
        "Queues and priority/DSCP mapping: RoCE on priority 3, CNP on 6 (strict), "
        "DSCP-based PFC on routed fabrics",
        "RoCE and congestion notifications must not share a lossy queue",
        "NVIDIA Cumulus Linux RoCE defaults; Guo et al. SIGCOMM 2016 DSCP-based PFC"),
    ChecklistItem(
        "Uniform link speeds between hosts, leaves and spines",
        "mixed generations degrade bandwidth (3-7 Gb/s seen on mixed XDR/NDR)",
        "ConnectX-7 firmware 28.47 release notes (indirect evidence)"),
)


OBJECTIVE_WORDS = {"fastest": "time to train", "cheapest": "cost", "balanced": "time and cost"}


@dataclass(frozen=True)
class FabricOption:
    """One fabric's best configuration for the top server at the top node count."""

    candidate: int
    fabric_id: str
    fabric_name: str
    kind: str
    rdma: bool
    lossless: bool
    line_rate_gbps: float
    throughput: float  # tokens/s or samples/s
    scaling_efficiency: float
    communication_share: float
    objective_score: float  # the objective alone, failures included; lower is better
    score: float  # with the policy's fabric preference, as the ranking orders
    goodput: float = 1.0  # useful training time over wall clock (sizing.goodput)
    wall_hours: float = 0.0  # time to train (or the duration priced), failures included
    cost_text: str = ""  # what that costs, as written in the currency
    # Work done in a duration given, failures excluded (None when the work is given).
    work_done: float | None = None
    unit: str = "tokens"
    currency: str = ""  # of the two amounts below; empty where the run is not priced
    total_cost: float = 0.0  # the run's total, one-time fees included
    one_time_cost: float = 0.0  # of it, the fabric's one-time fees (cables and optics)


def is_lossy_roce(option: FabricOption) -> bool:
    return option.kind == "roce" and not option.lossless


@dataclass(frozen=True)
class Recommendation:
    pick: FabricOption
    options: tuple[FabricOption, ...]  # fastest first
    reason: str
    fabric_class: str


def recommend(options: Sequence[FabricOption], objective: str,
              tolerance: float, uses_fabric: bool = True) -> Recommendation:
    """The option the ranking puts first, and why, in the customer's terms.

    The pick is the lowest preference-adjusted score, exactly as the ranking orders: for the
    top server and node count that is rank 1's fabric. The words say what the objective
    weighed with failures included (the goodput-adjusted time and cost of each fabric, shown),
    which preference decided when one did, and which fabrics to avoid. A job that does not use
    the fabric (one node) gets no fabric ranked, and fabrics that tie are never ordered.
    """
    if not options:
        raise ValueError("no fabric options")
    pick = min(options, key=lambda o: (o.score, o.candidate))
    if not uses_fabric:
        reason = (f"At one node the job runs inside the server ({pick.communication_share:.0%} "
                  "of each step on communication, none of it over the network): no fabric is "
                  "used or billed, so none is recommended over another; add nodes to need one.")
        ordered = tuple(sorted(options, key=lambda o: -o.throughput))
        return Recommendation(pick, ordered, reason, "no scale-out fabric at one node")
    fastest = max(options, key=lambda o: o.throughput)
    detail = (f"{pick.scaling_efficiency:.0%} scaling efficiency, {pick.communication_share:.0%} "
              "of each step on communication")
    # Options as fast as the pick, within 0.5%: no "most throughput" among them.
    ties = [o for o in options if o is not pick and o.throughput >= 0.995 * pick.throughput]
    if pick is fastest and not ties:
        reason = f"{pick.fabric_name} gives the most throughput at this scale ({detail})."
    elif pick is fastest:
        reason = (f"{pick.fabric_name} ranks first on {OBJECTIVE_WORDS[objective]} ({detail}): "
                  f"{ties[0].fabric_name} is as fast here, within 1%, and scores no better.")
    elif pick.throughput >= 0.995 * fastest.throughput:
        reason = (f"{pick.fabric_name} ranks first on {OBJECTIVE_WORDS[objective]} ({detail}): "
                  f"it is as fast as {fastest.fabric_name} here, within 1%, for less.")
    else:
        reason = (f"{pick.fabric_name} ranks first on {OBJECTIVE_WORDS[objective]} ({detail}): "
                  f"it reaches {pick.throughput / fastest.throughput:.0%} of the throughput of "
                  f"the fastest option, {fastest.fabric_name}, which does not pay for itself "
                  f"here{what_decides(pick, fastest)}.")
    better = [o for o in options if o.objective_score < pick.objective_score]
    if better:
        # The preference decided: an option scored better on the objective alone.
        lossy = [o for o in better if is_lossy_roce(o)]
        if lossy and not is_lossy_roce(pick):
            reason += (f" {lossy[0].fabric_name} scores slightly better, but there a lost packet "
                       "resends the whole window (go-back-N) and throughput collapses as loss "
                       "grows.")
    reason += avoid_words(options, pick, fastest, tolerance)
    ordered = tuple(sorted(options, key=lambda o: -o.throughput))
    if len(options) > 1 and all(o.cost_text for o in options):
        reason += " " + with_failures(pick, ordered)
    return Recommendation(pick, ordered, reason, fabric_class(pick))


def what_decides(pick: FabricOption, fastest: FabricOption) -> str:
    """What the faster fabric buys against what it costs more: on a short run its one-time
    fees (cables and optics, billed once whatever the run's length) can outweigh the hours it
    saves, on a long one its higher rent does."""
    extra = fastest.total_cost - pick.total_cost
    if not pick.currency or extra <= 0:
        return ""
    if fastest.work_done is None:
        gain = f"saves {time_saved(pick.wall_hours - fastest.wall_hours)}"
    else:
        gain = (f"does {fastest.work_done / pick.work_done - 1:.0%} more work in the "
                f"{fastest.wall_hours / 24:,.1f} days")
    currency = pick.currency
    one_time = fastest.one_time_cost - pick.one_time_cost
    rent = extra - one_time
    if rent < 0:  # the shorter run's rent is lower: the fees alone make it dearer
        return (f": it {gain} and {-rent:,.0f} {currency} of rent, but its one-time fabric fees "
                f"(cables and optics) are {one_time:,.0f} {currency} more, {extra:,.0f} "
                f"{currency} more in all: the fees outweigh the time saved")
    if one_time >= extra / 2:
        return (f": it {gain} for {extra:,.0f} {currency} more in all, {one_time:,.0f} "
                f"{currency} of it one-time fabric fees (cables and optics), which outweigh the "
                "time saved")
    return (f": it {gain} for {extra:,.0f} {currency} more in all, mostly its higher rent "
            f"({max(one_time, 0):,.0f} {currency} of one-time fabric fees)")


def avoid_words(options: Sequence[FabricOption], pick: FabricOption, fastest: FabricOption,
                tolerance: float) -> str:
    """The fabrics to avoid: each below the stated share of the best throughput and below the
    pick too (never the pick, nor a fabric that ties with it, as TCP fabrics do under their
    common per-host ceiling), each named once, at its best spine."""
    share = 1 - 2 * tolerance
    best_of: dict[str, FabricOption] = {}
    for o in options:  # a fabric's oversubscribed spines are options of their own
        if o.fabric_id not in best_of or o.throughput > best_of[o.fabric_id].throughput:
            best_of[o.fabric_id] = o
    weak = sorted((o for o in best_of.values() if o.throughput < fastest.throughput * share
                   and o.throughput < pick.throughput * (1 - tolerance)),
                  key=lambda o: (o.throughput, o.candidate))
    if not weak:
        return ""
    slowest = weak[0]
    waiting = f"{slowest.communication_share:.0%} of each step"
    if len(weak) == 1:
        return (f" Avoid {slowest.fabric_name}: {slowest.throughput / fastest.throughput:.0%} of "
                f"the best throughput (below {share:.0%}), with GPUs waiting on the network for "
                f"{waiting}.")
    # (fabric names hold commas of their own: "10 GbE, TCP sockets (no RDMA)")
    names = "; ".join(f"{o.fabric_name} {o.throughput / fastest.throughput:.0%}" for o in weak)
    return (f" Avoid each fabric below {share:.0%} of the best throughput: {names}; on the "
            f"slowest, GPUs wait on the network for {waiting}.")


def with_failures(pick: FabricOption, options: Sequence[FabricOption]) -> str:
    """The comparison the ranking made, failures included: the recommended option, the fastest
    and the best on the objective alone (before the policy's fabric preference), as the
    sentence a customer reads; every option's figures are in the comparison table."""
    def outcome(o: FabricOption) -> str:
        if o.work_done is None:
            return f"{o.wall_hours / 24:,.1f} days"
        return f"{o.work_done:.3g} {o.unit} in {o.wall_hours / 24:,.0f} days"

    roles: dict[int, list[str]] = {}
    fastest = max(options, key=lambda o: (o.throughput, -o.candidate))
    alone = min(options, key=lambda o: (o.objective_score, o.candidate))
    named = ((pick, "recommended"), (fastest, "fastest"), (alone, "best on the objective alone"))
    for o, role in named:
        roles.setdefault(o.candidate, []).append(role)
    shown = [o for o in options if o.candidate in roles]
    clauses = "; ".join(f"{o.fabric_name} {o.goodput:.1%} goodput, {outcome(o)}, {o.cost_text} "
                        f"({', '.join(roles[o.candidate])})" for o in shown)
    rest = len(options) - len(shown)
    tail = f"; the comparison has the other {rest}" if rest else ""
    return f"With interruptions, checkpoints and restarts counted: {clauses}{tail}."


def fabric_class(pick: FabricOption) -> str:
    """The class of fabric the numbers call for, in the words customers use."""
    rate = pick.line_rate_gbps
    if not pick.rdma:
        return f"plain Ethernet at {rate:g} Gb/s is enough at this scale"
    if is_lossy_roce(pick):
        return f"{rate:g} Gb/s-class RDMA; make it lossless RoCEv2 (PFC + ECN) or InfiniBand"
    return f"{rate:g} Gb/s-class RDMA: lossless RoCEv2 or InfiniBand"


# --------------------------------------------------------------------------- what-ifs

@dataclass(frozen=True)
class WhatIf:
    """A faster fabric, or more nodes on the same fabric, for about the same extra money."""

    current: int
    upgrade: int | None  # candidate: a faster fabric at the same node count
    more_nodes: int | None  # candidate: the same fabric at more nodes
    no_upgrade: str | None  # why there is no upgrade, when there is none
    no_more_nodes: str | None


# What a rule that ruled out every larger node count means to the customer.
WHY_NOT_MORE = {
    "stock": "the region's stock within your lead time allows no more nodes of this server",
    "budget": "more nodes exceed your budget",
    "deadline": "no larger configuration finishes by your deadline",
    "memory": "no layout of more nodes fits in GPU memory",
    "invalid_layout": "no parallel layout suits more nodes",
}


def fabric_or_more_gpus(current: int, same_nodes: Mapping[int, int], same_fabric: Mapping[int, int],
                        nodes: int, node_max: int, throughput: np.ndarray, monthly: np.ndarray,
                        ruled_out_beyond: Mapping[str, int]) -> WhatIf:
    """The fastest fabric upgrade at this node count against more nodes for about its money.

    `same_nodes` maps hardware -> best candidate of the top server at `nodes`; `same_fabric`
    maps node count -> best candidate of the current fabric; both hold only what can be sold
    (node range, stock, budget, included fabrics). The node count chosen is the one whose extra
    spend per month is closest to the upgrade's, or the next one up when no upgrade exists.
    `ruled_out_beyond` counts, by rule, candidates of larger node counts that were ruled out.
    """
    faster = [i for i in same_nodes.values() if throughput[i] > throughput[current]]
    upgrade = max(faster, key=lambda i: throughput[i]) if faster else None
    more = [(n, i) for n, i in same_fabric.items() if n > nodes]
    more_nodes = None
    if more:
        if upgrade is None:
            more_nodes = min(more)[1]
        else:
            extra = monthly[upgrade] - monthly[current]
            more_nodes = min(more, key=lambda ni: (abs(monthly[ni[1]] - monthly[current] - extra),
                                                   ni[0]))[1]
    no_upgrade = None if upgrade is not None else (
        "no faster fabric for this server is offered at this node count within your fabrics, "
        "stock and budget")
    no_more = None
    if more_nodes is None:
        if nodes >= node_max:
            no_more = f"{nodes} nodes is the top of your node range"
        elif ruled_out_beyond:
            rule = max(ruled_out_beyond, key=ruled_out_beyond.get)
            no_more = WHY_NOT_MORE.get(rule, "no larger configuration passes the filters")
        else:
            no_more = "no larger configuration passes the filters"
    return WhatIf(current, upgrade, more_nodes, no_upgrade, no_more)


def gain_text(gain: float) -> str:
    """A throughput gain as every what-if writes it, the sentence and the table alike: signed,
    to a tenth of a percent (an upgrade's few percent would read +2% beside +1.5%)."""
    return f"{gain:+.1%}"


@dataclass(frozen=True)
class Option:
    """A what-if option as a sentence needs it; money already written in the currency."""

    label: str  # "InfiniBand NDR 400 Gb/s" or "5 nodes"
    gain: float  # throughput gained, a fraction
    extra: str  # extra per month, as written
    gain_per_1000: float | None  # throughput units per 1,000 of the currency; None: no extra
    unit: str  # "tokens/s"
    currency: str = ""  # the currency the 1,000 are in


def fabric_or_more_gpus_sentence(upgrade: Option | None, more_nodes: Option | None,
                                 no_upgrade: str | None, no_more_nodes: str | None) -> str:
    """Words for the what-if; the verdict weighs throughput gained per unit of money, so two
    options of different extra spend compare as if for the same money."""
    def said(o: Option, verb: str) -> str:
        thousand = f"1,000 {o.currency}".strip()
        per = (f", {o.gain_per_1000:,.0f} {o.unit} per {thousand} of extra monthly spend"
               if o.gain_per_1000 is not None else ", at no extra cost")
        return f"{o.label} {verb} {gain_text(o.gain)} throughput for {o.extra} per month{per}"

    if upgrade and more_nodes:
        per_fabric = upgrade.gain_per_1000 if upgrade.gain_per_1000 is not None else float("inf")
        per_nodes = more_nodes.gain_per_1000 or 0.0
        verdict = ("the faster fabric buys more throughput for the money" if per_fabric >= per_nodes
                   else "more GPUs buy more throughput for the money")
        return f"{said(upgrade, 'adds')}; {said(more_nodes, 'add')}: {verdict}."
    if upgrade:
        return f"{said(upgrade, 'adds')}; more nodes are not an option: {no_more_nodes}."
    if more_nodes:
        return f"{said(more_nodes, 'add')}; a faster fabric is not an option: {no_upgrade}."
    return (f"Neither a faster fabric nor more nodes is an option: {no_upgrade}; and "
            f"{no_more_nodes}.")


# --------------------------------------------------------------------------- network upgrades

@dataclass(frozen=True)
class Network:
    """What a network option is, for saying what it buys over another."""

    fabric_id: str
    fabric_name: str
    kind: str
    lossless: bool
    sharp: bool
    oversubscription: float
    line_rate_gbps: float


def upgrade_label(base: Network, other: Network) -> str:
    """What `other` changes over `base` in a customer's words: lossless, SHARP or the spine.

    Lossless or SHARP is named as the change only when it is the only change (same kind, line
    rate and spine); otherwise the gain is the other fabric's as a whole, and it is named so.
    """
    at = f"{other.fabric_name} at {other.oversubscription:g}:1"
    if other.fabric_id == base.fabric_id:
        return (f"a {other.oversubscription:g}:1 spine instead of "
                f"{base.oversubscription:g}:1 ({other.fabric_name})")
    alike = (other.kind == base.kind and other.line_rate_gbps == base.line_rate_gbps
             and other.oversubscription == base.oversubscription)
    if alike and other.kind == "roce" and other.lossless and not base.lossless:
        return f"lossless RoCE (PFC + ECN) on the same wire, {at}"
    if alike and other.sharp and not base.sharp:
        return f"SHARP in-network reduction on the same fabric, {at}"
    if other.kind == "roce" and not other.lossless:
        # a sales engineer must not sell it as a plain upgrade
        return f"{at} (no PFC/ECN: each drop resends a go-back-N window, worse with scale)"
    return at


# Below this throughput gain an option buys nothing a customer would see (the model's own
# resolution is coarser); the sentence says so instead of quoting '+0.0%' and '0 per 1,000'.
MEASURABLE_GAIN = 0.001


def upgrade_sentence(label: str, gain: float, extra: str, gain_per_1000: float | None,
                     unit: str, currency: str) -> str:
    """'<label> buys +x% throughput for <extra> per month, <n> <unit> per 1,000 <currency> of
    extra monthly spend.' (or that it buys nothing measurable for this job)."""
    what = f"{label[0].upper()}{label[1:]}"
    if gain < MEASURABLE_GAIN:
        return (f"{what} buys no measurable throughput for this job ({extra} per month): "
                "its traffic does not wait on what this option changes.")
    per = (f", {gain_per_1000:,.0f} {unit} per 1,000 {currency} of extra monthly spend"
           if gain_per_1000 is not None else ", at no extra cost")
    return f"{what} buys {gain_text(gain)} throughput for {extra} per month{per}."
