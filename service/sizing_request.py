"""The sizing questionnaire as one typed request, built once; what the catalog cannot satisfy."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from catalog.offer import HardwareFilter, Sellable, emptying_filters, sellable_pairs
from catalog.snapshot import Snapshot
from service.workloads import layout_from, model_from
from sizing.policy import SizingPolicy
from sizing.search import LayoutSpace, search_size
from sizing.step import layout_rules, model_rules
from sizing.workload import GenericModel, Layout, Training, Transformer

Problems = list[tuple[str, str]]  # (JSON pointer, what to change)
# Distinct (servers' GPUs per node, node range, model, layout space) whose search sizes are
# kept: a size is a few hundred bytes of key, and most questionnaires are a preset over a
# handful of node ranges.
SEARCH_SIZES_KEPT = 1024
# Offers kept across requests, by snapshot, hardware filter and region (each a few pairs).
OFFERS_KEPT = 1024
_offers: dict[tuple[int, HardwareFilter, str], tuple[Snapshot, Sellable]] = {}


@dataclass(frozen=True)
class Work:
    """How much training: tokens, samples over epochs, or only a duration to price."""

    tokens: float | None
    samples_per_epoch: float | None
    epochs: float | None
    # With an amount of work, a deadline; alone, the duration to size for the most work done.
    duration_days: float | None

    @property
    def units(self) -> float | None:
        """Tokens (transformers) or samples (sample-based models) to train; None: a duration."""
        if self.tokens is not None:
            return self.tokens
        if self.samples_per_epoch is not None:
            return self.samples_per_epoch * (self.epochs or 1.0)
        return None


@dataclass(frozen=True)
class SizingRequest:
    """Everything a sizing needs, typed: built by `from_document` and by nothing else."""

    model: Transformer | GenericModel
    work: Work
    precision: str
    global_batch: int | None  # None: the policy's default, rounded per layout
    node_counts: tuple[int, ...]
    layout: LayoutSpace
    hardware: HardwareFilter
    region: str
    term: str
    currency: str
    objective: str
    budget_per_month: Decimal | None
    budget_total: Decimal | None
    max_lead_time_days: int
    max_results: int

    @classmethod
    def from_document(cls, doc: dict[str, Any]) -> SizingRequest:
        """From the questionnaire as accepted (validated, defaults filled in, as stored).

        The API builds it from the validated body, the worker from the stored record, with the
        same function and without checking it again.
        """
        model = model_from(doc["workload"])
        fixed = doc.get("layout")
        if fixed:
            layout = layout_from({**fixed, "dp": fixed.get("dp") or 0}, model)
            space = LayoutSpace(micro_batch=(fixed["micro_batch"],), fixed=layout)
        else:
            space = LayoutSpace()
        nodes = doc["nodes"]
        budget = lambda key: Decimal(doc[key]) if doc.get(key) is not None else None
        return cls(
            model=model,
            # The schema filled in a CNN preset's dataset when only epochs were given.
            work=Work(tokens=doc.get("tokens"), samples_per_epoch=doc.get("samples"),
                      epochs=doc.get("epochs"), duration_days=doc.get("duration_days")),
            precision=doc["precision"],
            global_batch=doc.get("global_batch"),
            node_counts=tuple(range(nodes["min"], nodes["max"] + 1)),
            layout=space,
            hardware=HardwareFilter(
                gpu_models=tuple(doc.get("gpu_models") or ()),
                gpus_per_node=doc.get("gpus_per_node"),
                fabrics_include=tuple(doc.get("fabrics_include") or ()),
                fabrics_exclude=tuple(doc.get("fabrics_exclude") or ()),
                rdma_required=doc["rdma_required"], precision=doc["precision"]),
            region=doc["region"], term=doc["term"], currency=doc["currency"],
            objective=doc["objective"],
            budget_per_month=budget("budget_per_month"), budget_total=budget("budget_total"),
            max_lead_time_days=doc["max_lead_time_days"], max_results=doc["max_results"],
        )

    @property
    def batch_fixed(self) -> bool:
        return self.global_batch is not None

    def training(self, policy: SizingPolicy) -> Training:
        """The batch asked for, or the policy's default (tokens per step, or samples)."""
        if self.global_batch is not None:
            batch = self.global_batch
        elif isinstance(self.model, Transformer):
            batch = max(1, round(policy.default_batch_tokens / self.model.seq_len))
        else:
            batch = int(policy.default_generic_batch)
        return Training(global_batch=batch, micro_batch=1, precision=self.precision)

    def max_global_batch(self, policy: SizingPolicy) -> float:
        """The largest batch a layout may round the default up to (a given batch is kept)."""
        return self.training(policy).global_batch * policy.max_batch_growth

    def offer(self, snap: Snapshot) -> Sellable:
        """catalog.offer.sellable_pairs for this request, worked out once per snapshot, hardware
        filter and region: a snapshot never changes, and the offer walks every pairing of it."""
        key = (id(snap), self.hardware, self.region)
        kept = _offers.get(key)
        # The snapshot is kept with its offer, so its id cannot be another snapshot's.
        if kept is not None and kept[0] is snap:
            return kept[1]
        offer = sellable_pairs(snap, self.hardware, self.region)
        if len(_offers) >= OFFERS_KEPT:
            _offers.clear()
        _offers[key] = (snap, offer)
        return offer

    def hardware_pairs(self, snap: Snapshot) -> int:
        """How many server and fabric pairs the offer can sell this request."""
        return len(self.offer(snap).pairs)

    def search_size(self, snap: Snapshot) -> int:
        """The candidates the search will enumerate (the search's own count, before it runs)."""
        pairs = self.offer(snap).pairs
        return counted_search_size(tuple(snap.servers[s].gpus_per_node for s, _ in pairs),
                                   self.node_counts, self.model, self.layout)

    def problems(self, snap: Snapshot) -> Problems:
        """What no configuration of this catalog could satisfy, each with what to change."""
        out: Problems = []
        if self.region not in snap.regions:
            out.append(("/region", f"unknown region; choose one of {', '.join(snap.regions)}"))
        if self.currency not in snap.prices.rates:
            out.append(("/currency", f"not offered; choose one of {', '.join(sorted(snap.prices.rates))}"))
        wanted = self.hardware
        for i, gpu in enumerate(wanted.gpu_models):
            if gpu not in snap.gpus:
                out.append((f"/gpu_models/{i}", f"unknown GPU {gpu!r}; see GET /v1/catalog/gpus"))
        for key, fabrics in (("fabrics_include", wanted.fabrics_include),
                             ("fabrics_exclude", wanted.fabrics_exclude)):
            for i, fabric in enumerate(fabrics):
                if fabric not in snap.fabrics:
                    out.append((f"/{key}/{i}", f"unknown fabric {fabric!r}; see GET /v1/catalog/fabrics"))
        offered = sorted({s.gpus_per_node for s in snap.servers.values()})
        if wanted.gpus_per_node and wanted.gpus_per_node not in offered:
            out.append(("/gpus_per_node", f"no server has that many GPUs; offered: {offered}"))
        fixed = self.layout.fixed
        if fixed:
            # The rules a pinned layout keeps whatever it runs on (its dp comes from the GPUs).
            out += [(f"/layout/{name}", reason) for name, reason in
                    layout_rules(fixed) + model_rules(self.model, self.precision, fixed)]
        pairs = self.offer(snap).pairs
        if not out and fixed and pairs and not self.search_size(snap):
            # The search builds no candidate: the pinned degrees suit no GPU count of the range.
            gpus_per_node = sorted({snap.servers[s].gpus_per_node for s, _ in pairs})
            out.append(unfit_degrees(fixed, gpus_per_node, self.node_counts))
        if not out and not pairs:
            # Each choice that alone empties the offer; else the hardware asked for.
            names = emptying_filters(snap, wanted, self.region) or (
                "fabrics_include" if wanted.fabrics_include else "gpu_models",)
            detail = "no server and fabric in the catalog satisfy these constraints together"
            notes = {"rdma_required": " (rdma_required excludes plain Ethernet fabrics)"}
            if self.precision == "fp8":
                fp8 = sorted(g.name for g in snap.gpus.values() if g.fp8_tflops)
                notes["precision"] = f" (fp8 needs a GPU with FP8: {', '.join(fp8)})"
            out += [(f"/{name}", detail + notes.get(name, "")) for name in names]
        return out


@lru_cache(maxsize=SEARCH_SIZES_KEPT)
def counted_search_size(gpus_per_node: tuple[int, ...], node_counts: tuple[int, ...],
                        model: Transformer | GenericModel, space: LayoutSpace) -> int:
    """sizing.search.search_size, kept per distinct argument: a pure count of frozen values,
    which costs about a millisecond (it walks every GPU count's layouts), asked at every
    submission before the allowance and again by an impossible-layout check."""
    return search_size(gpus_per_node, node_counts, model, space)


def unfit_degrees(fixed: Layout, gpus_per_node: list[int],
                  node_counts: tuple[int, ...]) -> tuple[str, str]:
    """Which pinned degree suits none of the GPU counts the node range gives the servers
    offered, checked as the search builds a cell's layouts (sizing.search.Enumeration): the
    model-parallel degrees divide the GPU count, the data-parallel size that leaves is the dp
    given, and ep and a hybrid-sharding group divide it."""
    counts = sorted({g * n for g in gpus_per_node for n in node_counts})
    held = "; ".join(f"{node_counts[0]}-{node_counts[-1]} nodes of {g} GPUs hold "
                     f"{g * node_counts[0]} to {g * node_counts[-1]}" for g in gpus_per_node)
    model_parallel = fixed.tp * fixed.pp * fixed.cp
    dps = [g // model_parallel for g in counts if g % model_parallel == 0]
    if not dps:
        # The degree to change is one without which the others fit some GPU count (tp 4 x pp 3
        # on 8-GPU nodes: pp, since 4 divides 8 and no tp makes 3 x tp divide it); the largest
        # of those (pp first on a tie: it is most often pinned), else the largest of all.
        degrees = ("pp", "tp", "cp")
        alone = [d for d in degrees if getattr(fixed, d) > 1 and any(
            g % (model_parallel // getattr(fixed, d)) == 0 for g in counts)]
        name = max(alone or degrees, key=lambda d: getattr(fixed, d))
        return (f"/layout/{name}", (f"tp x pp x cp = {model_parallel} GPUs per model replica "
                                    f"divides no GPU count of the range ({held})"))
    if fixed.dp:
        if fixed.dp not in dps:
            return ("/layout/dp", (f"dp x tp x pp x cp = {fixed.dp * model_parallel} GPUs, "
                                   f"a count the range does not give ({held})"))
        dps = [fixed.dp]
    for name, degree in (("ep", fixed.ep), ("shard_group", fixed.shard_group)):
        if degree > 1 and not any(dp % degree == 0 for dp in dps):
            return (f"/layout/{name}", (f"{name}={degree} divides no data-parallel size the "
                                        f"range gives (dp = GPUs / (tp x pp x cp): "
                                        f"{', '.join(map(str, dps[:8]))}"
                                        f"{', ...' if len(dps) > 8 else ''})"))
    return ("/layout", f"suits no GPU count of the range ({held})")
