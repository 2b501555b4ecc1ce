"""One estimate against the simplest peer, llm-analysis, on the same configuration, turn about.

GPT-3 175B (a model both describe exactly: llm-analysis needs the MLP width to be a multiple of
the hidden size) on 16 nodes of 8 H100 SXM, tp 8, pp 8, dp 2, ZeRO 1, selective recompute,
micro-batch 1, global batch 512: `sizing.step.estimate` against `LLMAnalysis.training`.
llm-analysis is installed in the bench's own environment by `make bench` (the `bench` extra).
"""
from __future__ import annotations

import logging
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.interleave import interleaved
from bench.search_bench import shipped_snapshot
from sizing.presets import preset_model
from sizing.step import estimate
from sizing.workload import Layout, Training

CALLS = 200  # per repeat, so that a repeat is long enough to time


def ours():
    snap = shipped_snapshot()
    cluster = snap.cluster("hgx-h100-8", "ib-ndr-400", 16)
    model = preset_model("gpt-3-175b")
    training = Training(global_batch=512, micro_batch=1, precision="bf16")
    layout = Layout(dp=2, tp=8, pp=8, zero_stage=1, recompute="selective")
    return lambda: estimate(cluster, model, training, layout, snap.constants)


def peer():
    """llm-analysis on the same model, GPUs and layout; None when it is not installed."""
    try:
        from llm_analysis.analysis import ActivationRecomputation, DSZeRO, LLMAnalysis
        from llm_analysis.config import (
            ModelConfig,
            ParallelismConfig,
            get_dtype_config_by_name,
            get_gpu_config_by_name,
        )
        from llm_analysis.logger import logger as peer_logger
    except ImportError:
        return None
    # llm-analysis logs through a logger literally named "__name__" (llm_analysis/logger.py),
    # so silencing "llm_analysis" reached nothing and every call wrote a warning to stderr:
    # the peer's time then included terminal output that is no part of its estimate.
    peer_logger.setLevel(logging.CRITICAL)
    model = preset_model("gpt-3-175b")
    config = ModelConfig(name="gpt-3-175b", num_layers=model.layers, n_head=model.heads,
                         hidden_dim=model.hidden, vocab_size=model.vocab,
                         max_seq_len=model.seq_len, ffn_embed_dim=model.ffn_hidden)
    gpu = get_gpu_config_by_name("h100-sxm-80gb")
    dtype = get_dtype_config_by_name("w16a16e16")

    def once():
        analysis = LLMAnalysis(config, gpu, dtype, ParallelismConfig(tp_size=8, pp_size=8,
                                                                     dp_size=2),
                               flops_efficiency=0.5, hbm_memory_efficiency=0.9)
        return analysis.training(batch_size_per_gpu=1, global_batch_size=512,
                                 seq_len=model.seq_len,
                                 activation_recomputation=ActivationRecomputation.SELECTIVE,
                                 ds_zero=DSZeRO.STAGE_1, flash_attn=True)
    return once


def per_call(fn):
    def timed() -> float:
        t0 = time.perf_counter()
        for _ in range(CALLS):
            fn()
        return (time.perf_counter() - t0) / CALLS
    return timed


def measure(repeats: int = 5) -> dict | None:
    theirs = peer()
    if theirs is None:
        return None
    mine = ours()
    mine(), theirs()  # imports and caches warm
    return {"pair": interleaved(per_call(mine), per_call(theirs), repeats)}


def main():
    m = measure()
    if m is None:
        print("llm-analysis is not installed: pip install 'llm-analysis==0.2.2'")
        return
    pair = m["pair"]
    print(f"estimate(): median {pair.a.median * 1000:.3f} ms; llm-analysis: median "
          f"{pair.b.median * 1000:.3f} ms: {pair.ratio_median:.2f}x (best {pair.ratio_best:.2f}x)")


if __name__ == "__main__":
    main()
