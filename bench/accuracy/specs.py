"""Row specs (specs.yaml): how each published row is run, every value with its citation."""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from bench.accuracy import MEASUREMENT_FILES, SPECS_FILE

KINDS = ("collective", "training", "ratio", "memory")
METRICS = {
    "collective": ("busbw_gbs",),
    "training": ("tflops_per_gpu", "model_tflops_per_gpu", "model_tflops_per_gpu_causal",
                 "mfu_pct", "mfu_causal_pct", "samples_per_s", "samples_per_s_per_gpu",
                 "step_time_s", "tokens_per_s_per_gpu", "time_to_train_minutes"),
    "ratio": ("ratio", "ratio_pct", "scaling_efficiency_pct"),
    # A training run's peak memory per GPU (the rows of MEMORY_FILE).
    "memory": ("peak_memory_gb",),
}
# Metrics that are times: a larger value is a slower run.
TIME_METRICS = ("step_time_s", "time_to_train_minutes")
# A time to train is the work its source trained (tokens) over the modelled throughput, plus
# the seconds of its timed region that the source gives for what the model does not price
# (evaluations); only such a row states them.
WORK_FIELDS = ("train_tokens", "evaluation_s")
SYSTEM_FIELDS = ("system", "gpu", "gpus_per_node", "nics_per_node", "nic_rate_gbps", "node_gbps",
                 "gpudirect", "fabric", "pcie_gen", "nodes", "gpus",
                 "nodes_per_leaf")
COLLECTIVE_FIELDS = SYSTEM_FIELDS + ("op", "algorithm", "message_bytes")
TRAINING_FIELDS = SYSTEM_FIELDS + (
    "model", "seq_len", "dp", "tp", "pp", "ep", "context_parallel", "virtual_stages",
    "zero_stage", "sequence_parallel", "recompute", "global_batch", "micro_batch",
    "gradient_accumulation", "precision", "framework", "recompute_layers", "shard_group",
    "offload", "flash_attention", "attention_kernel", "overlap_grad_reduce",
    "grad_reduce_in_fp32", "overlap_param_gather", "fp8_param_gather", "tp_comm_overlap",
    "fused_cross_entropy",
    "embedding_in_pipeline_split", "grad_bucket_mb",
    *WORK_FIELDS)
RATIO_GROUPS = ("run", "numerator", "denominator")
MODEL_KEYS = {"preset", "layers", "hidden", "heads", "kv_heads", "ffn_hidden", "vocab",
              "experts", "top_k", "gated_mlp", "tied_embeddings", "dropout", "source"}

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(B|K|KiB|M|MiB|G|GiB)?\s*$")
_SIZE_UNITS = {None: 1, "B": 1, "K": 2**10, "KiB": 2**10, "M": 2**20, "MiB": 2**20,
               "G": 2**30, "GiB": 2**30}


class SpecError(ValueError):
    """specs.yaml is malformed: names the row and the field."""


@dataclass(frozen=True)
class Value:
    """One value of a run: stated by the source (`cite`) or assumed with the alternatives swept."""

    value: Any
    cite: str | None = None
    assumed: str | None = None
    sweep: tuple = ()

    @property
    def citation(self) -> str:
        return self.cite if self.cite is not None else f"assumed ({self.assumed})"


@dataclass(frozen=True)
class Spec:
    row: int
    source: str
    kind: str | None  # None for a skipped row
    groups: dict[str, dict[str, Value]] = field(default_factory=dict)
    metric: str | None = None
    of: str | None = None  # the training metric a ratio divides
    skip: str | None = None
    note: str = ""
    # Why a value of the run was chosen with the row's error in view: the row is then
    # reported as seen, not as a check row.
    seen: str | None = None

    def values(self):
        """Every (group, name, Value) of the spec."""
        for group, values in self.groups.items():
            for name, value in values.items():
                yield group, name, value


@dataclass(frozen=True)
class Measurement:
    row: int
    file: str
    category: str  # first category of the row
    source: str
    metric: str
    value: float
    unit: str
    verification: str
    raw: dict


def parse_size(text: Any) -> int:
    """Message size as nccl-tests and all_reduce_bench.py print it (K, M, G are powers of 2)."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    match = _SIZE.match(str(text))
    if not match:
        raise SpecError(f"not a message size: {text!r}")
    return int(float(match.group(1)) * _SIZE_UNITS[match.group(2)])


def measured_value(text: str) -> float:
    """The number a row reports: its leading number, or the midpoint of a range like 149-150."""
    match = re.match(r"^\s*(\d+(?:\.\d+)?)(?:\s*-\s*(\d+(?:\.\d+)?))?", text)
    if not match:
        raise SpecError(f"no number in measured value {text!r}")
    low = float(match.group(1))
    return (low + float(match.group(2))) / 2 if match.group(2) else low


def load_measurements(paths=MEASUREMENT_FILES) -> dict[int, Measurement]:
    """Every row of the measurement files by id; ids are unique across the files."""
    rows: dict[int, Measurement] = {}
    for path in paths:
        with open(path, newline="", encoding="utf-8") as fh:
            for raw in csv.DictReader(fh):
                row = int(raw["id"])
                if row in rows:
                    raise SpecError(f"row {row} appears in {rows[row].file} and {Path(path).name}")
                rows[row] = Measurement(
                    row=row, file=Path(path).name, category=raw["category"].split(";")[0],
                    source=raw["source"], metric=raw["metric"], value=measured_value(raw["value"]),
                    unit=raw["unit"], verification=raw["verification"], raw=raw)
    return rows


def _value(raw: Any, where: str) -> Value:
    if not isinstance(raw, dict) or "value" not in raw:
        raise SpecError(f"{where}: must be {{value, cite}} or {{value, assumed, sweep}}, got {raw!r}")
    extra = set(raw) - {"value", "cite", "assumed", "sweep"}
    if extra:
        raise SpecError(f"{where}: unknown keys {sorted(extra)}")
    cite, assumed, sweep = raw.get("cite"), raw.get("assumed"), raw.get("sweep")
    if (cite is None) == (assumed is None):
        raise SpecError(f"{where}: give exactly one of cite (the source states it) or assumed")
    for text, key in ((cite, "cite"), (assumed, "assumed")):
        if text is not None and (not isinstance(text, str) or len(text.strip()) < 5):
            raise SpecError(f"{where}: {key} must say where the value comes from")
    if assumed is not None and (not isinstance(sweep, list) or not sweep):
        raise SpecError(f"{where}: an assumed value needs the alternatives it is swept over")
    if cite is not None and sweep is not None:
        raise SpecError(f"{where}: a cited value is not swept")
    return Value(raw["value"], cite, assumed, tuple(sweep or ()))


def _values(raw: Any, allowed: tuple[str, ...], where: str) -> dict[str, Value]:
    if not isinstance(raw, dict):
        raise SpecError(f"{where}: must be a mapping")
    unknown = set(raw) - set(allowed)
    if unknown:
        raise SpecError(f"{where}: unknown fields {sorted(unknown)}")
    out = {name: _value(item, f"{where}.{name}") for name, item in raw.items()}
    if "message_bytes" in out:
        v = out["message_bytes"]
        out["message_bytes"] = Value(parse_size(v.value), v.cite, v.assumed,
                                     tuple(parse_size(s) for s in v.sweep))
    return out


def _spec(raw: dict, sources: dict) -> Spec:
    if not isinstance(raw, dict) or not isinstance(raw.get("row"), int):
        raise SpecError(f"a spec needs a whole-number row: {raw!r}")
    row = raw["row"]
    where = f"row {row}"
    source = raw.get("source")
    if source not in sources:
        raise SpecError(f"{where}: source {source!r} is not listed under sources")
    note = raw.get("note", "")
    seen = raw.get("seen")
    if seen is not None and (not isinstance(seen, str) or len(seen) < 10):
        raise SpecError(f"{where}: say which value was chosen with the row's error in view")
    if "skip" in raw:
        if set(raw) - {"row", "source", "skip", "note"}:
            raise SpecError(f"{where}: a skipped row has only row, source, skip and note")
        if not isinstance(raw["skip"], str) or len(raw["skip"]) < 10:
            raise SpecError(f"{where}: say why the row is skipped")
        return Spec(row, source, None, skip=raw["skip"], note=note)
    kind = raw.get("kind")
    if kind not in KINDS:
        raise SpecError(f"{where}: kind must be one of {KINDS}")
    metric = raw.get("metric")
    if metric not in METRICS[kind]:
        raise SpecError(f"{where}: metric of a {kind} row must be one of {METRICS[kind]}")
    if kind == "ratio":
        if set(raw) - {"row", "source", "kind", "metric", "of", "note", "seen", *RATIO_GROUPS}:
            raise SpecError(f"{where}: unknown keys")
        if raw.get("of") not in METRICS["training"] or raw["of"] == "time_to_train_minutes":
            raise SpecError(f"{where}: 'of' names the training metric divided (a rate or a "
                            f"step time)")
        groups = {g: _values(raw.get(g, {}), TRAINING_FIELDS, f"{where}.{g}")
                  for g in RATIO_GROUPS}
        return Spec(row, source, kind, groups, metric, raw["of"], note=note, seen=seen)
    allowed = COLLECTIVE_FIELDS if kind == "collective" else TRAINING_FIELDS
    values = {k: v for k, v in raw.items()
              if k not in ("row", "source", "kind", "metric", "note", "seen")}
    timed = metric == "time_to_train_minutes"
    if timed and "train_tokens" not in values:
        raise SpecError(f"{where}: a time to train needs the tokens its source trained "
                        f"(train_tokens)")
    if not timed and set(WORK_FIELDS) & set(values):
        raise SpecError(f"{where}: {sorted(set(WORK_FIELDS) & set(values))} belong to a "
                        f"time_to_train_minutes row")
    return Spec(row, source, kind, {"run": _values(values, allowed, where)}, metric, note=note,
                seen=seen)


@dataclass(frozen=True)
class Specs:
    sources: dict[str, str]
    models: dict[str, dict]
    specs: dict[int, Spec]


def load_specs(path: Path = SPECS_FILE) -> Specs:
    """Read specs.yaml; every value must carry a citation or be an assumption with a sweep."""
    with open(path, encoding="utf-8") as fh:
        document = yaml.safe_load(fh)
    if set(document) != {"sources", "models", "rows"}:
        raise SpecError("specs.yaml has exactly: sources, models, rows")
    sources = document["sources"]
    models = document["models"]
    for name, model in models.items():
        unknown = set(model) - MODEL_KEYS
        if unknown or "source" not in model:
            raise SpecError(f"model {name}: unknown keys {sorted(unknown)} or no source")
    specs: dict[int, Spec] = {}
    for raw in document["rows"]:
        spec = _spec(raw, sources)
        if spec.row in specs:
            raise SpecError(f"row {spec.row} has two specs")
        specs[spec.row] = spec
    return Specs(sources, models, specs)
