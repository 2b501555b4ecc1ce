"""The compiled pricing of NCCL's algorithms against the numpy reference: bit-identical times and
the same algorithm on many random groups, and every output of estimate_batch alike."""
import numpy as np
import pytest

from catalog.shipped import shipped
from sizing import nccl_kernel
from sizing.collectives import CHOSEN, collective_cost
from sizing.hardware import Cluster, Server
from sizing.presets import preset_model
from sizing.step import estimate_batch, layout_arrays
from sizing.topology import Links
from sizing.workload import FRAMEWORKS, RECOMPUTE, Layout, Training

pytestmark = pytest.mark.skipif(not nccl_kernel.ENABLED,
                                reason="SIZING_KERNELS=numpy: no compiled kernel to compare")


def random_clusters(rng, count):
    """Clusters of every GPU (reference ones too) and fabric, NIC set-ups and node counts."""
    gpus, fabrics = list(shipped().all_gpus.values()), list(shipped().all_fabrics.values())
    clusters = []
    for _ in range(count):
        server = Server("s", "s", gpus[rng.integers(len(gpus))], int(rng.choice([1, 2, 4, 8])),
                        int(rng.choice([1, 2, 4, 8])), float(rng.choice([100.0, 200.0, 400.0])),
                        int(rng.integers(3, 6)), bool(rng.integers(0, 2)))
        clusters.append(Cluster(server, fabrics[rng.integers(len(fabrics))],
                                int(rng.choice([1, 2, 3, 4, 8, 16, 64, 256])),
                                bool(rng.integers(0, 2))))
    return clusters


def columns(rows):
    return {k: np.concatenate([r[k] for r in rows]) for k in rows[0]}


def both_ways(monkeypatch, price):
    """price() with the compiled kernel, then with the numpy reference."""
    compiled = price()
    with monkeypatch.context() as m:
        m.setattr(nccl_kernel, "ENABLED", False)
        reference = price()
    return compiled, reference


@pytest.mark.parametrize("op", ["all_reduce", "reduce_scatter", "all_gather"])
def test_kernel_matches_reference_on_random_groups(op, constants, monkeypatch):
    rng = np.random.default_rng(16)
    clusters = random_clusters(rng, 4000)
    c = columns([cl.as_arrays() for cl in clusters])
    links = Links.of(c, constants)
    gpn = c["gpus_per_node"].astype(float)
    n = rng.choice([1, 2, 3, 4, 8, 16, 32, 64, 512, 2048], size=len(clusters)).astype(float)
    per_node = np.minimum(gpn, rng.choice([1, 2, 4, 8], size=len(clusters)))
    size = 2.0 ** rng.uniform(0, 35, size=len(clusters))  # 1 B .. 32 GiB
    share = links.node_Bps * per_node / gpn
    (t, code), (t_ref, code_ref) = both_ways(
        monkeypatch, lambda: collective_cost(op, size, n, per_node, links, share, constants))
    assert np.array_equal(t.view(np.int64), t_ref.view(np.int64))
    assert np.array_equal(code, code_ref)
    # The draw reaches every algorithm an all-reduce can run, and the fills of NVLS's two.
    chosen = {CHOSEN[k] for k in np.unique(code)}
    assert chosen == ({"ring", "tree", "nvls", "nvls_tree", "collnet"} if op == "all_reduce"
                      else {"ring"})


def test_estimate_batch_outputs_identical_with_the_kernel(constants, monkeypatch):
    rng = np.random.default_rng(17)
    model = preset_model("mixtral-8x7b")
    rows = []
    for cluster in random_clusters(rng, 3000):
        tp, pp = int(rng.choice([1, 2, 4, 8])), int(rng.choice([1, 2, 4]))
        if cluster.gpus % (tp * pp):
            continue
        dp = cluster.gpus // (tp * pp)
        layout = Layout(dp=dp, tp=tp, pp=pp, ep=int(rng.choice([1, 2, 8])),
                        zero_stage=int(rng.integers(0, 4)),
                        framework=FRAMEWORKS[int(rng.integers(0, 4))],
                        recompute=RECOMPUTE[int(rng.integers(0, 3))])
        row = cluster.as_arrays()
        row.update(layout_arrays(layout, Training(1024, int(rng.choice([1, 2])))))
        rows.append(row)
    batch = columns(rows)
    compiled, reference = both_ways(
        monkeypatch, lambda: estimate_batch(batch, model, Training(1024, 1), constants))
    valid = reference["valid"]
    assert valid.sum() > 500
    assert np.array_equal(compiled["valid"], valid)
    for key, value in reference.items():
        assert np.array_equal(np.broadcast_to(compiled[key], valid.shape)[valid],
                              np.broadcast_to(value, valid.shape)[valid]), key
