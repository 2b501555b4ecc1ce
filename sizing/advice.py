"""Network advice from the model's numbers: which fabric fits, fabric vs more GPUs, RoCEv2 checklist."""

from __future__ import annotations

from dataclasses import dataclass

# What a RoCEv2 fabric must guarantee to behave like InfiniBand (brief §2.3, with its sources).
ROCE_CHECKLIST = (
    {"item": "PFC end to end on the RoCE priority",
     "why": "RoCEv2 recovers from loss by go-back-N; a dropped packet resends the whole window",
     "source": "NVIDIA Cumulus Linux docs, 'RoCE relies on ECN and PFC to operate'; "
               "Wang et al. ICCCN 2019"},
    {"item": "ECN marking with DCQCN rate control, not pause frames alone",
     "why": "PFC alone causes head-of-line blocking, congestion spreading and pause storms",
     "source": "Mittal et al. SIGCOMM 2018; Guo et al. SIGCOMM 2016; Asterfusion: "
               "'PFC for per-class lossless transport, DCQCN + ECN for per-flow control'"},
    {"item": "Consistent MTU on every hop (RDMA path MTU 4096 on a jumbo Ethernet MTU)",
     "why": "a smaller MTU anywhere fragments messages and lowers goodput",
     "source": "RDMA path MTU 256-4096 B (ib_send_lat table, brief §2.3); jumbo-frame "
               "requirement is a planning assumption, not a vendor quote"},
    {"item": "Queues and priority/DSCP mapping: RoCE on priority 3, CNP on 6 (strict), "
             "DSCP-based PFC on routed fabrics",
     "why": "RoCE and congestion notifications must not share a lossy queue",
     "source": "NVIDIA Cumulus Linux RoCE defaults; Guo et al. SIGCOMM 2016 DSCP-based PFC"},
    {"item": "Uniform link speeds between hosts, leaves and spines",
     "why": "mixed generations degrade bandwidth (3-7 Gb/s seen on mixed XDR/NDR)",
     "source": "ConnectX-7 firmware 28.47 release notes (indirect evidence)"},
)


@dataclass(frozen=True)
class FabricPoint:
    """One fabric's numbers for the same server, workload and node count."""

    fabric_id: str
    fabric_name: str
    kind: str
    rdma: bool
    lossless: bool
    scaling_efficiency: float
    throughput: float  # tokens/s or samples/s
    monthly_price: float
    communication_share: float


def is_lossy_roce(p: FabricPoint) -> bool:
    return p.kind == "roce" and not p.lossless


def recommend_fabric(points: list[FabricPoint], tolerance: float,
                     long_large_run: bool = False) -> tuple[FabricPoint, str]:
    """The cheapest fabric whose throughput is within `tolerance` of the fastest one, and why.

    Throughput, not efficiency, decides: a layout can look efficient on a slow fabric only
    because it recomputes more, which the customer pays for all the same. Two preferences come
    before price among the fabrics that keep up: RoCEv2 without PFC/ECN is never the advice
    while a lossless fabric keeps up (its go-back-N collapse under loss is a risk the nominal
    loss rate of the model does not bound), and a large, long run takes InfiniBand first when
    one keeps up (lossless by credit-based flow control, with no switch tuning to get wrong).
    """
    best = max(points, key=lambda p: p.throughput)
    good = [p for p in points if p.throughput >= best.throughput * (1 - tolerance)]
    stable = [p for p in good if not is_lossy_roce(p)] or good
    infiniband = [p for p in stable if p.kind == "infiniband"]
    preferred = infiniband if long_large_run and infiniband else stable
    pick = min(preferred, key=lambda p: p.monthly_price)
    if pick is best:
        cheapest = min(good, key=lambda p: p.monthly_price) is pick
        reason = (f"{pick.fabric_name} gives the most throughput at this scale "
                  f"({pick.scaling_efficiency:.0%} scaling efficiency, {pick.communication_share:.0%} "
                  "of each step on communication)"
                  + (f"; no cheaper fabric comes within {tolerance:.0%} of it." if cheapest
                     else "."))
    else:
        reason = (f"{pick.fabric_name} reaches {pick.throughput / best.throughput:.0%} of the "
                  f"throughput of the fastest option ({best.fabric_name}) "
                  f"({pick.scaling_efficiency:.0%} scaling efficiency): a faster fabric buys little "
                  "here.")
    if preferred is infiniband and min(stable, key=lambda p: p.monthly_price) is not pick:
        reason += (" For a run this large and long InfiniBand comes first: it is lossless by "
                   "design, with no PFC/ECN tuning to get wrong.")
    cheaper_lossy = [p for p in good if is_lossy_roce(p) and p.monthly_price < pick.monthly_price]
    if cheaper_lossy and not is_lossy_roce(pick):
        lossy = min(cheaper_lossy, key=lambda p: p.monthly_price)
        reason += (f" {lossy.fabric_name} costs less, but there a lost packet resends the whole "
                   "window (go-back-N) and throughput collapses as loss grows.")
    weak = [p for p in points if p.throughput < best.throughput * (1 - 2 * tolerance)]
    if weak:
        worst = min(weak, key=lambda p: p.throughput)
        reason += (f" Avoid {worst.fabric_name}: {worst.throughput / best.throughput:.0%} of the "
                   f"best throughput, with GPUs waiting on the network for "
                   f"{worst.communication_share:.0%} of each step.")
    return pick, reason


def fabric_class(pick: FabricPoint, line_rate_gbps: float) -> str:
    """The class of fabric the numbers call for, in the words customers use."""
    if not pick.rdma:
        return f"plain Ethernet at {line_rate_gbps:g} Gb/s is enough at this scale"
    if pick.kind == "roce" and not pick.lossless:
        return (f"{line_rate_gbps:g} Gb/s-class RDMA; make it lossless RoCEv2 (PFC + ECN) or "
                "InfiniBand")
    return f"{line_rate_gbps:g} Gb/s-class RDMA: lossless RoCEv2 or InfiniBand"


def upgrade_vs_more_gpus(current_throughput: float, current_price: float,
                         upgraded_throughput: float, upgraded_price: float,
                         more_nodes_throughput: float, more_nodes_price: float) -> str:
    """Words for 'a faster fabric or more GPUs for the same money', with the numbers."""
    fabric_gain = upgraded_throughput / current_throughput - 1
    nodes_gain = more_nodes_throughput / current_throughput - 1
    extra_fabric = upgraded_price - current_price
    extra_nodes = more_nodes_price - current_price
    verdict = ("the faster fabric is the better buy" if fabric_gain >= nodes_gain
               else "more GPUs are the better buy")
    return (f"Upgrading the fabric adds {fabric_gain:+.0%} throughput for {extra_fabric:+,.0f} per "
            f"month; spending about the same on more nodes adds {nodes_gain:+.0%} for "
            f"{extra_nodes:+,.0f} per month: {verdict}.")
