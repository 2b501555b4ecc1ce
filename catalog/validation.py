"""Run the published measurements through the performance model and report the errors.

Two sets: measurements.csv (some rows calibrate constants) and the hold-out set
catalog/data/holdout_measurements.csv, which no constant was fitted to.

Usage: python -m catalog.validation [--measurements PATH] [--holdout PATH]
"""
from __future__ import annotations

import argparse
import csv
import statistics
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from sizing.collectives import collective_time
from sizing.constants import ModelConstants
from sizing.hardware import GPU, Cluster, Fabric, Server
from sizing.step import estimate
from sizing.workload import Layout, Training, Transformer

DATA_DIR = Path(__file__).resolve().parent / "data"
REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MEASUREMENTS = REPO_ROOT.parent / "shared" / "validation" / "measurements.csv"
DEFAULT_HOLDOUT = DATA_DIR / "holdout_measurements.csv"

GiB = 1024**3
MiB = 1024**2

# Rows whose numbers set a constant in catalog/data (the constant's source names the row).
CALIBRATION_ROWS = {
    2: "ib-hdr-200 achievable_fraction",
    3: "ib-ndr-400 achievable_fraction",
    4: "ib-hdr-200 achievable_fraction",
    5: "ib-ndr-400 achievable_fraction",
    7: "EFA latency (this file)",
    12: "EFA achievable fraction (this file)",
    18: "ib-hdr-200 achievable_fraction",
    43: "matmul_efficiency a100, matmul_knee_us",
    44: "matmul_efficiency a100, matmul_knee_us",
    45: "matmul_efficiency a100, matmul_knee_us",
    46: "matmul_efficiency a100, matmul_knee_us",
}


# --------------------------------------------------------------------------- catalog data

def load_constants(path: Path | None = None) -> ModelConstants:
    with open(path or DATA_DIR / "model.yaml", encoding="utf-8") as fh:
        model = yaml.safe_load(fh)
    with open(DATA_DIR / "policy.yaml", encoding="utf-8") as fh:
        return ModelConstants.from_mapping(model, yaml.safe_load(fh))


def load_fabrics(path: Path | None = None) -> dict[str, Fabric]:
    with open(path or DATA_DIR / "fabrics.yaml", encoding="utf-8") as fh:
        entries = yaml.safe_load(fh)["fabrics"]
    return {
        e["id"]: Fabric(
            id=e["id"], name=e["name"], kind=e["kind"], line_rate_gbps=float(e["line_rate_gbps"]),
            latency_us=float(e["latency_us"]), achievable_fraction=float(e["achievable_fraction"]),
            rdma=bool(e["rdma"]), lossless=bool(e["lossless"]), jitter_cv=float(e["jitter_cv"]),
            loss_rate=float(e["loss_rate"]), oversubscription=float(e["oversubscription_options"][0]),
            nodes_per_leaf=int(e["nodes_per_leaf"]),
        )
        for e in entries
    }


# --------------------------------------------------------------------------- row hardware
# Hardware of the measured systems, from the brief (section 1) unless stated.

A100_SXM = GPU("a100-80gb-sxm", "A100 80GB SXM4", 312.0, None, 80, 2039, "nvlink", 300)  # brief 1.1
# A100 40GB SXM4: same GA100 die, clocks and NVLink 3; 40 GB HBM2 at 1,555 GB/s (brief 1.1
# thundercompute table, first column).
A100_SXM_40 = GPU("a100-40gb-sxm", "A100 40GB SXM4", 312.0, None, 40, 1555, "nvlink", 300)
H100_SXM = GPU("h100-sxm", "H100 SXM5", 989.4, 1978.9, 80, 3350, "nvlink", 450)  # brief 1.1
B200 = GPU("b200", "B200 (HGX, 1,000 W)", 2250.0, 4500.0, 180, 8000, "nvlink", 900)  # brief 1.1
# Not in the brief: NVIDIA Tesla V100 / P100 datasheets. V100 SXM3 in DGX-2: 125 TFLOPS FP16
# tensor (DGX-2H: 130, consistent with row 47's 62.4 TFLOPS = 48% of peak), NVLink 2 300 GB/s
# bidirectional. P100 PCIe 16 GB: 9.3 TFLOPS FP32, 732 GB/s, PCIe 3.0 x16 (~15.75 GB/s one way).
V100_DGX2 = GPU("v100-sxm3-32gb", "V100 SXM3 (DGX-2)", 125.0, None, 32, 900, "nvlink", 150)
V100_DGX2H = replace(V100_DGX2, name="V100 SXM3 (DGX-2H)", bf16_tflops=130.0)
P100_PCIE = GPU("p100-pcie-16gb", "P100 PCIe 16GB", 18.7, None, 16, 732, "pcie", 15.75,
                fp32_tflops=9.3)


def _server(gpu, gpus, nics, rate, gdr=True, sid="row-server"):
    return Server(sid, f"{gpus}x {gpu.name}", gpu, gpus, nics, rate, 4, gdr)


def _efa_v4(fabrics):
    """AWS EFA (SRD): RDMA with GPUDirect, loss recovered in the NIC (no go-back-N)."""
    return Fabric("efa-v4-400", "AWS EFA v4 400 Gb/s", "ethernet", 400.0,
                  latency_us=7.0,  # calibrated on row 7 (16 MiB busbw)
                  achievable_fraction=0.96,  # calibrated on row 12 (16 GiB busbw)
                  rdma=True, lossless=True, jitter_cv=fabrics["roce-400-lossless"].jitter_cv,
                  loss_rate=0.0, oversubscription=1.0, nodes_per_leaf=10**6)


def _roce_25(fabrics):
    """Horovod's 'RoCE-capable 25 Gbit/s': the lossless RoCE SKU figures at 25 Gb/s."""
    return replace(fabrics["roce-100-lossless"], id="roce-25", name="RoCE 25 GbE",
                   line_rate_gbps=25.0, nodes_per_leaf=10**6)


# Model dimensions. GPT-2/Megatron v1: Shoeybi et al. 2019 Table 1 (seq 1024, vocab 51200).
# GPT-3 175B / 530B as used by Narayanan et al. 2021 and Korthikanti et al. 2022 Table 3
# (seq 2048, vocab 51200); 22B and 1T from Korthikanti et al. 2022 Table 3.
def _gpt(name, layers, hidden, heads, seq=2048, vocab=51200):
    return Transformer(name, layers, hidden, heads, heads, 4 * hidden, vocab, seq)


GPT2_1B = _gpt("GPT-2 1.2B", 40, 1536, 16, seq=1024)
GPT2_8B = _gpt("GPT-2 8.3B", 72, 3072, 32, seq=1024)
GPT_22B = _gpt("GPT 22B", 48, 6144, 64)
GPT_175B = _gpt("GPT 175B", 96, 12288, 96)
GPT_530B = _gpt("GPT 530B", 105, 20480, 128)
GPT_1T = _gpt("GPT 1T", 128, 25600, 160)


@dataclass
class Case:
    row: int
    what: str
    predict: object  # callable -> float in the row's unit
    note: str = ""


def _busbw(op, size, cluster, constants, algorithm="ring"):
    return lambda: collective_time(op, size, cluster, constants, algorithm)[2]


def _llm(cluster, model, gb, mb, layout, constants, metric, precision="bf16"):
    def run():
        e = estimate(cluster, model, Training(gb, mb, precision), layout, constants)
        return {"tflops": e.achieved_tflops_per_gpu, "mfu": 100 * e.mfu,
                "eff": 100 * e.scaling_efficiency}[metric]
    return run


def build_cases(constants: ModelConstants, fabrics: dict[str, Fabric]):
    """Cases the model can express, and (row, reason) for those it cannot."""
    cases: list[Case] = []
    skipped: list[tuple[int, str]] = []
    fx = fabrics
    # --- a: NCCL all_reduce bus bandwidth. Node counts not stated: 2 nodes assumed. nccl-tests
    # large-message numbers are ring numbers (maintainer, issue #169: 'unless NCCL_ALGO=RING').
    big = 4 * GiB
    cases.append(Case(1, "busbw 100GbE TCP sockets, 1 NIC/node, 2 nodes", _busbw(
        "all_reduce", big, Cluster(_server(A100_SXM, 8, 1, 100), fx["eth-tcp-100"], 2, False),
        constants)))
    cases.append(Case(2, "busbw 200G RDMA, 1 NIC/node, 2 nodes", _busbw(
        "all_reduce", big, Cluster(_server(A100_SXM, 8, 1, 200), fx["ib-hdr-200"], 2, True),
        constants)))
    cases.append(Case(3, "busbw 400G RDMA, 1 NIC/node, 2 nodes", _busbw(
        "all_reduce", big, Cluster(_server(H100_SXM, 8, 1, 400), fx["ib-ndr-400"], 2, True),
        constants)))
    cases.append(Case(4, "busbw DGX A100 8x200G, 2 nodes", _busbw(
        "all_reduce", big, Cluster(_server(A100_SXM, 8, 8, 200), fx["ib-hdr-200"], 2, True),
        constants)))
    cases.append(Case(5, "busbw DGX H100 8x400G, 2 nodes", _busbw(
        "all_reduce", big, Cluster(_server(H100_SXM, 8, 8, 400), fx["ib-ndr-400"], 2, True),
        constants)))
    skipped.append((6, "in-network reduction (SHARP) is not modelled"))
    efa = Cluster(_server(B200, 8, 8, 400), _efa_v4(fx), 4, True)
    for row, size in zip(range(7, 13), (16 * MiB, 64 * MiB, 256 * MiB, GiB, 4 * GiB, 16 * GiB)):
        cases.append(Case(row, f"busbw B200 EFA 8x400G, 4 nodes, {size / MiB:g} MiB",
                          _busbw("all_reduce", size, efa, constants)))
    cases.append(Case(13, "busbw B200 single node NVLink 5, 4 GiB", _busbw(
        "all_reduce", 4 * GiB, Cluster(_server(B200, 8, 8, 400), fx["ib-ndr-400"], 1, True),
        constants)))
    for row, nodes in zip(range(14, 18), (2, 3, 4, 6)):
        cl = Cluster(_server(A100_SXM, 8, 8, 100), fx["roce-100-lossless"], nodes, True)
        cases.append(Case(row, f"busbw A100 RoCE 8x100G, {nodes} nodes (user report)",
                          _busbw("all_reduce", big, cl, constants)))
    cases.append(Case(18, "busbw per 200G NIC (maintainer rule)", _busbw(
        "all_reduce", big, Cluster(_server(A100_SXM, 8, 1, 200), fx["ib-hdr-200"], 2, True),
        constants)))

    # --- b: Horovod CNN data-parallel scaling (P100, 4 per server, 25G RoCE, FP32).
    # Per-GPU batch 64 and no GPUDirect RDMA are assumptions (not stated by the source).
    from sizing.presets import PRESETS
    roce25 = _roce_25(fx)
    for row, preset, nodes in ((19, "inception-v3", 128), (20, "resnet-101", 128),
                               (21, "vgg-16", 128), (22, "resnet-101", 32), (23, "vgg-16", 32)):
        cl = Cluster(_server(P100_PCIE, 4, 1, 25, gdr=False), roce25, nodes, False)
        gpus = cl.gpus
        what = f"scaling eff {preset}, {gpus} P100, 25G RoCE"
        if row == 22:
            what += " (row also covers Inception V3)"
        cases.append(Case(row, what, _llm(cl, PRESETS[preset].model, 64 * gpus, 64,
                                          Layout(dp=gpus, tp=1, pp=1, recompute="none"),
                                          constants, "eff", precision="fp32")))

    # --- c: LLM throughput.
    # Rows 24, 47: weak scaling of Megatron v1, 8.3B on 8 GPUs (TP 8) vs 1.2B on 1 GPU,
    # batch 8, full activation checkpointing; ratio of achieved TFLOP/s per GPU.
    for row, gpu in ((24, V100_DGX2), (47, V100_DGX2H)):
        def ratio(gpu=gpu):
            one = Cluster(_server(gpu, 1, 1, 100), fx["ib-hdr-200"], 1, True)
            eight = Cluster(_server(gpu, 8, 1, 100), fx["ib-hdr-200"], 1, True)
            base = estimate(one, GPT2_1B, Training(8, 8), Layout(1, 1, 1, recompute="full"),
                            constants)
            big_ = estimate(eight, GPT2_8B, Training(8, 8), Layout(1, 8, 1, recompute="full"),
                            constants)
            return 100 * big_.achieved_tflops_per_gpu / base.achieved_tflops_per_gpu
        cases.append(Case(row, f"8.3B TP8 vs 1.2B 1-GPU, {gpu.name}", ratio))

    # Rows 25-33: Narayanan et al. 2021 Table 2 on Selene (DGX A100, 8x HDR 200G), full
    # recomputation, FP16; achieved TFLOP/s per GPU counts recomputation FLOPs.
    selene = _server(A100_SXM, 8, 8, 200)
    table2 = [
        (25, GPT_175B, 384, "zero3", 1536, 4), (26, GPT_175B, 768, "zero3", 1536, 2),
        (27, GPT_175B, 1536, "zero3", 1536, 1), (28, GPT_175B, 384, 12, 1536, 1),
        (29, GPT_175B, 768, 12, 1536, 1), (30, GPT_175B, 1536, 12, 1536, 1),
        (31, GPT_530B, 560, 35, 2240, 1), (32, GPT_530B, 2240, 35, 2240, 1),
        (33, GPT_530B, 2240, "zero3", 2240, 1),
    ]
    for row, model, gpus, pp, gb, mb in table2:
        cl = Cluster(selene, fx["ib-hdr-200"], gpus // 8, True)
        if pp == "zero3":
            layout = Layout(dp=gpus, tp=1, pp=1, zero_stage=3, recompute="full")
            what = f"TFLOP/s/GPU {model.name} ZeRO-3, {gpus} A100"
        else:
            layout = Layout(dp=gpus // (8 * pp), tp=8, pp=pp, recompute="full")
            what = f"TFLOP/s/GPU {model.name} TP8 PP{pp}, {gpus} A100"
        note = ("DeepSpeed ZeRO-3 (2021) ran far below ring-optimal bandwidth; the model "
                "follows bandwidth physics" if pp == "zero3" else "")
        cases.append(Case(row, what, _llm(cl, model, gb, mb, layout, constants, "tflops"),
                          note=note))

    for row in range(34, 43):
        skipped.append((row, "model dimensions (layers, hidden, heads) are not stated in the row"))

    # Rows 43-46: Megatron-LM README MFU, DP=1, sequence parallel + selective recompute;
    # layouts from Korthikanti et al. 2022 Table 3 (TP 8, PP 1/8/35/64, batch 4/64/280/512).
    for row, model, pp, gb in ((43, GPT_22B, 1, 4), (44, GPT_175B, 8, 64),
                               (45, GPT_530B, 35, 280), (46, GPT_1T, 64, 512)):
        cl = Cluster(selene, fx["ib-hdr-200"], pp, True)
        layout = Layout(dp=1, tp=8, pp=pp, sequence_parallel=True, recompute="selective")
        cases.append(Case(row, f"MFU {model.name} TP8 PP{pp}, DP=1, A100",
                          _llm(cl, model, gb, 1, layout, constants, "mfu")))

    # Row 48: Llama 3 405B over RoCE 400G at 8,192 H100 (TP 8, PP 16, DP 64, seq 8192,
    # 16M-token batch: the top of the paper's range, per the paper's Table 4 which the row did
    # not read); interleaved 1F1B with 2 virtual stages assumed. The row gives 38-43% MFU,
    # compared at its midpoint.
    llama = PRESETS["llama-3-405b"].model
    cl = Cluster(_server(H100_SXM, 8, 8, 400), fx["roce-400-lossless"], 1024, True)
    cases.append(Case(48, "MFU Llama 3 405B, 8,192 H100, RoCE 400G",
                      _llm(cl, llama, 2048, 1, Layout(dp=64, tp=8, pp=16, virtual_stages=2,
                                                      sequence_parallel=True), constants, "mfu"),
                      note="measured = midpoint of 38-43"))
    return cases, skipped


# --------------------------------------------------------------------------- hold-out set
# Rows of catalog/data/holdout_measurements.csv. No constant of catalog/data was fitted to them:
# they check that the model generalises beyond measurements.csv.

def _mpt(name, layers, hidden, heads):
    """MPT (llm-foundry yamls): GPT-style, 4x MLP, vocab 50368, seq 2048, tied embeddings."""
    return Transformer(name, layers, hidden, heads, heads, 4 * hidden, 50368, 2048)


BLOOM_176B = Transformer("BLOOM 176B", 70, 14336, 112, 112, 4 * 14336, 250880, 2048)


def build_holdout_cases(constants: ModelConstants, fabrics: dict[str, Fabric]):
    """Cases for the hold-out rows, and (row, reason) for those the model cannot express."""
    from sizing.presets import PRESETS

    cases: list[Case] = []
    skipped: list[tuple[int, str]] = []
    fx = fabrics
    selene = _server(A100_SXM, 8, 8, 200)
    # Narayanan et al. 2021 Table 1 (weak scaling on Selene). Micro-batch 1, full
    # recomputation, non-interleaved schedule assumed (the table does not state them).
    table1 = [(101, 24, 2304, 24, 1, 1, 32, 512), (102, 32, 3072, 30, 2, 1, 64, 512),
              (103, 32, 4096, 36, 4, 1, 128, 512), (104, 48, 6144, 40, 8, 1, 256, 1024),
              (105, 64, 8192, 48, 8, 2, 512, 1536), (106, 80, 10240, 60, 8, 4, 1024, 1792),
              (107, 96, 12288, 80, 8, 8, 1536, 2304), (108, 128, 16384, 96, 8, 16, 1920, 2160),
              (109, 128, 20480, 105, 8, 35, 2520, 2520), (110, 160, 25600, 128, 8, 64, 3072, 3072)]
    for row, heads, hidden, layers, t, p, gpus, gb in table1:
        model = _gpt(f"GPT h={hidden} L={layers}", layers, hidden, heads)
        cl = Cluster(selene, fx["ib-hdr-200"], gpus // 8, True)
        layout = Layout(dp=gpus // (t * p), tp=t, pp=p, recompute="full")
        cases.append(Case(row, f"TFLOP/s/GPU GPT h={hidden} TP{t} PP{p}, {gpus} A100",
                          _llm(cl, model, gb, 1, layout, constants, "tflops")))
    # Table 2 rows of the 529.6B model that measurements.csv does not hold.
    for row, gpus, kind, gb, mb in ((111, 640, "zero3", 2560, 4), (112, 1120, "zero3", 2240, 2),
                                    (113, 1120, 35, 2240, 1)):
        cl = Cluster(selene, fx["ib-hdr-200"], gpus // 8, True)
        if kind == "zero3":
            layout = Layout(dp=gpus, tp=1, pp=1, zero_stage=3, recompute="full")
            what = f"TFLOP/s/GPU GPT 530B ZeRO-3, {gpus} A100"
        else:
            layout = Layout(dp=gpus // (8 * kind), tp=8, pp=kind, recompute="full")
            what = f"TFLOP/s/GPU GPT 530B TP8 PP{kind}, {gpus} A100"
        cases.append(Case(row, what, _llm(cl, GPT_530B, gb, mb, layout, constants, "tflops")))
    # llm-foundry MPT benchmarks: FSDP FULL_SHARD with activation checkpointing on A100 nodes
    # with 1600 Gb/s of RoCE (8 x 200G assumed).
    mpt = {"70b": _mpt("MPT-70B", 80, 8192, 64), "30b": _mpt("MPT-30B", 48, 7168, 56),
           "13b": _mpt("MPT-13B", 40, 5120, 40), "7b": _mpt("MPT-7B", 32, 4096, 32)}
    for row, size, gpu, gpus, mb, gb in ((114, "70b", A100_SXM, 64, 8, 2048),
                                         (115, "70b", A100_SXM, 32, 2, 1024),
                                         (116, "7b", A100_SXM_40, 128, 18, 2304),
                                         (117, "13b", A100_SXM_40, 128, 16, 2048),
                                         (118, "30b", A100_SXM_40, 128, 6, 768)):
        cl = Cluster(_server(gpu, 8, 8, 200), fx["roce-200-lossless"], gpus // 8, True)
        layout = Layout(dp=gpus, tp=1, pp=1, zero_stage=3, recompute="full")
        cases.append(Case(row, f"MFU {mpt[size].name} FSDP, {gpus} {gpu.name}",
                          _llm(cl, mpt[size], gb, mb, layout, constants, "mfu")))
    # BLOOM 176B topology benchmark on Jean Zay: 48 nodes, 4 x 100 Gb/s Omni-Path per node
    # (modelled as a 100G RDMA port), ZeRO-1, MBS 2, full checkpointing.
    for row, dp, tp in ((119, 4, 8), (120, 8, 4)):
        cl = Cluster(_server(A100_SXM, 8, 4, 100), fx["ib-hdr-200"], 48, True)
        layout = Layout(dp=dp, tp=tp, pp=12, zero_stage=1, recompute="full")
        cases.append(Case(row, f"TFLOP/s/GPU BLOOM 176B DP{dp} TP{tp} PP12, 384 A100",
                          _llm(cl, BLOOM_176B, 2048, 2, layout, constants, "tflops")))
    # Horovod over 25 GbE TCP (no RDMA): 32 servers of 4 P100, FP32, batch 64 per GPU assumed.
    for row, preset in ((121, "inception-v3"), (122, "resnet-101")):
        cl = Cluster(_server(P100_PCIE, 4, 1, 25, gdr=False), fx["eth-tcp-25"], 32, False)
        cases.append(Case(row, f"scaling eff {preset}, 128 P100, 25G TCP",
                          _llm(cl, PRESETS[preset].model, 64 * 128, 64,
                               Layout(dp=128, tp=1, pp=1, recompute="none"), constants, "eff",
                               precision="fp32")))
    return cases, skipped


# --------------------------------------------------------------------------- run

def _measured(value: str) -> float:
    value = value.strip()
    if "-" in value[1:]:
        lo, hi = value.split("-", 1)
        return (float(lo) + float(hi)) / 2
    return float(value)


def validation_rows(measurements: str | Path | None = None) -> list[dict]:
    """Every row of measurements.csv with the model's prediction, or the reason it is skipped."""
    path = Path(measurements) if measurements else DEFAULT_MEASUREMENTS
    return _evaluate(path, build_cases, CALIBRATION_ROWS)


def holdout_rows(holdout: str | Path | None = None) -> list[dict]:
    """Every hold-out row (never used for calibration) with the model's prediction."""
    path = Path(holdout) if holdout else DEFAULT_HOLDOUT
    return _evaluate(path, build_holdout_cases, {})


def _evaluate(path: Path, builder, calibration_rows) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as fh:
        rows = {int(r["id"]): r for r in csv.DictReader(fh)}
    constants = load_constants()
    cases, skipped = builder(constants, load_fabrics())
    out = []
    for case in cases:
        r = rows.get(case.row)
        if r is None:
            continue
        measured = _measured(r["value"])
        predicted = float(case.predict())
        out.append({
            "id": case.row, "category": r["category"].split(";")[0], "what": case.what,
            "unit": r["unit"], "measured": measured, "predicted": predicted,
            "error_pct": 100 * (predicted - measured) / measured,
            "calibration": case.row in calibration_rows, "weak": _weak(r),
            "skipped": None, "note": case.note or r.get("note", "") or "",
        })
    for row, reason in skipped:
        if row in rows:
            out.append({"id": row, "category": rows[row]["category"].split(";")[0],
                        "what": rows[row]["metric"], "skipped": reason})
    return sorted(out, key=lambda d: d["id"])


def _weak(r) -> bool:
    v = r["verification"].lower()
    return "user-report" in v or "unverified" in v and "fabric unverified" not in v


def summary(rows: list[dict]) -> dict[str, dict]:
    """Median and worst absolute error (%) per category over the expressed rows."""
    out = {}
    for cat in sorted({r["category"] for r in rows}):
        errs = [abs(r["error_pct"]) for r in rows if r["category"] == cat and not r["skipped"]]
        if errs:
            out[cat] = {"rows": len(errs), "median_abs_error_pct": statistics.median(errs),
                        "worst_abs_error_pct": max(errs)}
    return out


def _print_table(rows: list[dict]) -> None:
    print(f"{'row':>4}  {'what was measured':<58} {'measured':>9} {'predicted':>9} "
          f"{'error':>7}  calib  weak")
    for r in rows:
        if r["skipped"]:
            print(f"{r['id']:>4}  skipped: {r['skipped']}")
            continue
        print(f"{r['id']:>4}  {r['what'][:58]:<58} {r['measured']:>9.1f} {r['predicted']:>9.1f} "
              f"{r['error_pct']:>+6.0f}%  {'yes' if r['calibration'] else '-':<5}  "
              f"{'yes' if r['weak'] else '-'}")
        if r["note"]:
            print(f"      note: {r['note']}")
    print()
    for cat, s in summary(rows).items():
        print(f"{cat:<18} rows {s['rows']:>2}  median |error| {s['median_abs_error_pct']:5.1f}%  "
              f"worst {s['worst_abs_error_pct']:5.1f}%")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measurements", default=None, help="path to measurements.csv")
    parser.add_argument("--holdout", default=None, help="path to holdout_measurements.csv")
    args = parser.parse_args(argv)
    print("== measurements.csv (rows marked calib set a constant)")
    _print_table(validation_rows(args.measurements))
    print()
    print("== hold-out set: catalog/data/holdout_measurements.csv "
          "(NEVER used for calibration)")
    _print_table(holdout_rows(args.holdout))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
