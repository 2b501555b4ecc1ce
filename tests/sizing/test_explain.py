"""The bottleneck in words: every term of the step's breakdown can be the one named."""
import pytest

from sizing.explain import bottleneck
from sizing.presets import preset_model
from sizing.step import BREAKDOWN_KEYS, estimate
from sizing.workload import Layout, Training

FITS = {"fits": True}
# every overhead of the step: the breakdown but the compute and the hidden (overlapped) times
OVERHEADS = [k for k in BREAKDOWN_KEYS if k != "compute_s" and not k.endswith("_hidden_s")]


def _dominated_by(key, compute_share):
    """A step of 1 s whose compute takes `compute_share` and `key` the rest."""
    r = {k: 0.0 for k in BREAKDOWN_KEYS}
    r.update(step_time_s=1.0, compute_s=compute_share, tp_cross_node=False,
             communication_share=0.0)
    r[key] = 1.0 - compute_share
    return r


@pytest.mark.parametrize("compute_share", [0.7, 0.2])
def test_every_overhead_is_named_in_its_own_words(cluster_on, compute_share):
    cluster = cluster_on("ib-ndr-400", 4)
    layout = Layout(dp=32, tp=1, pp=1)
    said = {k: bottleneck(cluster, layout, _dominated_by(k, compute_share), FITS)
            for k in OVERHEADS}
    assert len(set(said.values())) == len(OVERHEADS), said
    share = f"{100 * (1 - compute_share):.0f}%"
    assert all(share in sentence for sentence in said.values()), said


def test_the_largest_overhead_of_a_70b_fsdp_step_is_the_one_named(cluster_on, constants):
    """70B with ZeRO-3 on 64 H100 nodes over NDR: the compute stragglers outweigh the network
    jitter, and the sentence says so."""
    e = estimate(cluster_on("ib-ndr-400", 64), preset_model("llama-3-70b"), Training(1024, 2),
                 Layout(dp=512, tp=1, pp=1, zero_stage=3, recompute="full"), constants)
    b = e.breakdown
    largest = max(OVERHEADS, key=b.get)
    assert largest == "compute_straggler_s"
    assert "slowest GPU's compute" in e.bottleneck
    assert f"at {100 * b[largest] / e.step_time_s:.0f}%" in e.bottleneck
