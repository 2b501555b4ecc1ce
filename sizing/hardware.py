"""Hardware value objects: GPU, server, fabric and the cluster they make."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

INTRA_LINKS = ("nvlink", "xgmi", "pcie")
FABRIC_KINDS = ("infiniband", "roce", "ethernet")
# Leaf-spine: each node's NICs share one leaf switch. Rail-optimised (NVIDIA's SuperPOD
# reference): NIC i of every node of a scalable unit goes to leaf i, so rail-aligned traffic
# (NCCL rings and trees, and all-to-all through PXN's NVLink hop) stays below the spine inside
# the unit.
TOPOLOGIES = ("leaf-spine", "rail-optimised")


@dataclass(frozen=True)
class GPU:
    id: str
    name: str
    bf16_tflops: float
    fp8_tflops: float | None
    memory_gb: float
    memory_bandwidth_gbs: float
    intra_link: str  # 'nvlink' | 'xgmi' | 'pcie'
    intra_bandwidth_gbs: float  # per GPU, one direction, GB/s
    fp32_tflops: float | None = None  # only needed for FP32 training
    nvlink_sharp: bool = False  # NVSwitch with in-switch reduction (NCCL NVLS)
    # Whether its tensor cores run BF16 (Ampere, sm80, and later; CDNA): without it,
    # bf16_tflops is the GPU's FP16 rate and only FP16 mixed precision trains at it.
    bf16: bool = True
    # Whether FlashAttention-class fused attention runs on it (FlashAttention-2 needs Ampere,
    # sm80, or later): without it attention is unfused unless a layout states otherwise.
    fused_attention: bool = True

    def peak_tflops(self, precision: str) -> float | None:
        """The dense rate of a precision, None where the GPU cannot train in it: FP16 runs
        at the 16-bit tensor-core rate bf16_tflops gives (the same for FP16 and BF16 on every
        GPU that has both)."""
        return {"bf16": self.bf16_tflops if self.bf16 else None, "fp16": self.bf16_tflops,
                "fp8": self.fp8_tflops, "fp32": self.fp32_tflops}.get(precision)


@dataclass(frozen=True)
class Server:
    id: str
    name: str
    gpu: GPU
    gpus_per_node: int
    nics_per_node: int
    nic_rate_gbps: float
    pcie_gen: int
    gpudirect_rdma: bool  # NIC under the same PCIe switch as its GPU, and the GPU supports it
    # Host memory of one node, GB: what offloaded optimizer state and activations must fit in
    # (None: not stated, as for hardware outside the catalog, and then not checked).
    host_memory_gb: float | None = None


@dataclass(frozen=True)
class Fabric:
    id: str
    name: str
    kind: str  # 'infiniband' | 'roce' | 'ethernet'
    line_rate_gbps: float
    latency_us: float
    achievable_fraction: float
    rdma: bool
    lossless: bool
    jitter_cv: float
    loss_rate: float
    oversubscription: float
    nodes_per_leaf: int
    topology: str = "leaf-spine"  # TOPOLOGIES
    nodes_per_unit: int = 0  # rail-optimised: nodes of one scalable unit (a leaf per rail)
    nodes_below_core: int = 0  # nodes the spine joins; beyond them a core tier (0: none)
    sharp: bool = False  # in-network reduction (SHARP) enabled for NCCL CollNet
    adaptive_routing: bool = False  # switches spread flows per packet (no ECMP collisions)
    selective_repeat: bool = False  # the NIC resends only lost packets (not go-back-N)
    # latency of an inter-node ring step where it differs from a tree hop's (latency_us); None:
    # the same (catalog/data: EFA on p5, whose ring steps were measured apart)
    ring_latency_us: float | None = None


    @property
    def nodes_below_spine(self) -> int:
        """Nodes whose traffic meets without crossing the spine: a leaf, or a rail-optimised unit."""
        return self.nodes_per_unit if self.topology == "rail-optimised" else self.nodes_per_leaf


@dataclass(frozen=True)
class Cluster:
    server: Server
    fabric: Fabric
    nodes: int
    gpudirect: bool  # GPUDirect RDMA actually in use (server supports it and fabric is RDMA)

    @property
    def gpu(self) -> GPU:
        return self.server.gpu

    @property
    def gpus_per_node(self) -> int:
        return self.server.gpus_per_node

    @property
    def gpus(self) -> int:
        return self.nodes * self.server.gpus_per_node

    @property
    def nic_rate_effective_gbps(self) -> float:
        """Signalling rate of one NIC port on this fabric: the slower of NIC and fabric."""
        return min(self.server.nic_rate_gbps, self.fabric.line_rate_gbps)

    @property
    def uses_gpudirect(self) -> bool:
        return bool(self.gpudirect and self.server.gpudirect_rdma and self.fabric.rdma)

    def as_arrays(self) -> dict:
        """This cluster as the length-1 arrays the vectorised model consumes."""
        g, f, s = self.gpu, self.fabric, self.server
        nan = float("nan")
        return {
            "gpu_id": np.array([g.id]),
            "gpu_bf16_tflops": np.array([g.bf16_tflops], float),
            "gpu_fp8_tflops": np.array([nan if g.fp8_tflops is None else g.fp8_tflops], float),
            "gpu_fp32_tflops": np.array([nan if g.fp32_tflops is None else g.fp32_tflops], float),
            "gpu_memory_gb": np.array([g.memory_gb], float),
            "gpu_memory_bandwidth_gbs": np.array([g.memory_bandwidth_gbs], float),
            "gpu_intra_link": np.array([INTRA_LINKS.index(g.intra_link)]),
            "gpu_intra_bandwidth_gbs": np.array([g.intra_bandwidth_gbs], float),
            "gpu_nvlink_sharp": np.array([g.nvlink_sharp]),
            "gpus_per_node": np.array([s.gpus_per_node]),
            "pcie_gen": np.array([s.pcie_gen]),
            "host_memory_gb": np.array([np.inf if s.host_memory_gb is None
                                        else s.host_memory_gb], float),
            "nics_per_node": np.array([s.nics_per_node]),
            "nic_rate_gbps": np.array([s.nic_rate_gbps], float),
            "gpudirect": np.array([self.uses_gpudirect]),
            "fabric_kind": np.array([FABRIC_KINDS.index(f.kind)]),
            "fabric_line_rate_gbps": np.array([f.line_rate_gbps], float),
            "fabric_latency_us": np.array([f.latency_us], float),
            "fabric_ring_latency_us": np.array([f.latency_us if f.ring_latency_us is None
                                                else f.ring_latency_us], float),
            "fabric_achievable_fraction": np.array([f.achievable_fraction], float),
            "fabric_rdma": np.array([f.rdma]),
            "fabric_lossless": np.array([f.lossless]),
            "fabric_jitter_cv": np.array([f.jitter_cv], float),
            "fabric_loss_rate": np.array([f.loss_rate], float),
            "fabric_oversubscription": np.array([f.oversubscription], float),
            "fabric_nodes_per_leaf": np.array([f.nodes_below_spine]),
            "fabric_rail": np.array([f.topology == "rail-optimised"]),
            "fabric_nodes_below_core": np.array([f.nodes_below_core or np.inf]),
            "fabric_sharp": np.array([f.sharp]),
            "fabric_adaptive_routing": np.array([f.adaptive_routing]),
            "fabric_selective_repeat": np.array([f.selective_repeat]),
            "nodes": np.array([self.nodes]),
        }
