"""Which algorithm and protocol NCCL ran an all-reduce with on AWS p5/p5e: aws-ofi-nccl's
region tuner, as the p5 curve (p5_curve.py) was measured with it.

aws/aws-ofi-nccl v1.16.3 (the curve's image, crazyguitar/aws-gpu-communication-benchmark
Dockerfile @a77f70db: EFA installer 1.43.2, NCCL 2.27.7) bundles its tuner in the net plugin,
which NCCL 2.21 and later load when NCCL_TUNER_PLUGIN names no file it finds
(src/Makefile.am; NVIDIA/nccl src/plugin/tuner.cc @v2.27.7 falls back to
ncclGetNetPluginLib). src/tuner/nccl_ofi_regions.cpp region_init_internal_p5_p5e: for 8 ranks
per node, all-reduce regions in (message bytes, ranks), tried in order, the first containing the
point (its edge included) sets its pair's cost to zero; none below three nodes
(region_get_coll_info_internal_v3: 'Skip when two nodes or lesser'), and a point in no region
is left to NCCL's own model. The point-in-polygon test below is the plugin's: its edge
distance, its bounding box and its ray cast to (2 x TUNER_MAX_SIZE, 2 x TUNER_MAX_RANKS).
"""
from __future__ import annotations

import math

Point = tuple[float, float]

TUNER_MAX_SIZE = 100.0 * 1024 * 1024 * 1024  # include/tuner/nccl_ofi_tuner_region.h
TUNER_MAX_RANKS = 1024.0 * 1024
_EPS = 1e-10


def _sub(a: Point, b: Point) -> Point:
    return a[0] - b[0], a[1] - b[1]


def _cross(a: Point, b: Point) -> float:
    return a[0] * b[1] - a[1] * b[0]


def _intersect(x0: Point, x1: Point, y0: Point, y1: Point) -> tuple[int, Point | None]:
    """1 if segment x0-x1 crosses y0-y1, -1 if not, 0 if parallel or at an end of y0-y1; and
    the crossing point of the lines (None if parallel)."""
    dx, dy = _sub(x1, x0), _sub(y1, y0)
    d = _cross(dy, dx)
    if abs(d) < _EPS:
        return 0, None
    a = (_cross(x0, dx) - _cross(y0, dx)) / d
    at = (y0[0] + a * dy[0], y0[1] + a * dy[1])
    if a < -_EPS or a > 1 + _EPS:
        return -1, at
    if a < _EPS or a > 1 - _EPS:
        return 0, at
    b = (_cross(x0, dy) - _cross(y0, dy)) / d
    return (-1 if b < 0 or b > 1 else 1), at


def _distance(x: Point, y0: Point, y1: Point) -> float:
    dy = _sub(y1, y0)
    crossing, at = _intersect(x, (x[0] + dy[1], x[1] - dy[0]), y0, y1)
    if crossing == -1 or at is None:
        return math.inf
    s = _sub(at, x)
    return math.hypot(*s)


def inside(point: Point, vertices: list[Point]) -> int:
    """1 inside, 0 on an edge, -1 outside (the plugin's is_inside_region)."""
    edges = list(zip(vertices, vertices[1:] + vertices[:1]))
    if any(_distance(point, a, b) < _EPS for a, b in edges):
        return 0
    xs, ys = [v[0] for v in vertices], [v[1] for v in vertices]
    if not (min(xs) <= point[0] <= max(xs) and min(ys) <= point[1] <= max(ys)):
        return -1
    far = (2.0 * TUNER_MAX_SIZE, 2.0 * TUNER_MAX_RANKS)
    crossings = sum(_intersect(point, far, a, b)[0] == 1 for a, b in edges)
    return 1 if crossings % 2 else -1


def _extend(a: Point, b: Point, z: Point) -> Point:
    """The plugin's extend_region: the line a-b carried to z's x or y, whichever comes first."""
    if a[0] == b[0]:
        return a[0], z[1]
    if a[1] == b[1]:
        return z[0], a[1]
    m = (a[1] - b[1]) / (a[0] - b[0])
    c = b[1] - m * b[0]
    y = m * z[0] + c
    return (z[0], y) if y < z[1] else ((z[1] - c) / m, z[1])


_TOP = (TUNER_MAX_SIZE, TUNER_MAX_RANKS)
_TREE_LL128 = _extend((402653184, 2048), (402653184, 4096), _TOP)
_NVLS_TREE_1 = _extend((8053063680, 160), (9663676416, 192), _TOP)
_RING_SIMPLE = _NVLS_TREE_1  # the plugin extends the same line for both
# (algorithm, protocol, vertices) in the plugin's order, 8 ranks per node, all-reduce
P5_ALL_REDUCE: tuple[tuple[str, str, list[Point]], ...] = (
    ("tree", "ll128", [(0, 16), (31457280, 16), (37748736, 32), (117440512, 64),
                       (301989888, 128), (301989888, 256), (335544320, 512),
                       (536870912, 1024), (402653184, 2048), (402653184, 4096), _TREE_LL128,
                       (0, _TREE_LL128[1])]),
    ("nvls_tree", "simple", [(31457281, 16), (TUNER_MAX_SIZE, 16), (31457281, 16)]),
    ("ring", "ll128", [(31457280, 17), (1073741824, 17), (2147483648, 64), (2147483648, 128),
                       (1342177280, 160), (2147483648, 256), (1074790400, 256),
                       (444596224, 160), (301989888, 128), (117440512, 64), (37748736, 32)]),
    ("nvls_tree", "simple", [(2147483648, 128), (6442450944, 128), (8053063680, 160),
                             (9663676416, 192), _NVLS_TREE_1, _TREE_LL128, (402653184, 4096),
                             (402653184, 2048), (536870912, 1024), (335544320, 512),
                             (301989888, 256), (310378496, 160), (444596224, 160),
                             (1074790400, 256), (2684354560, 256), (2147483648, 224),
                             (1342177280, 160)]),
    ("ring", "simple", [(1073741824, 17), (_RING_SIMPLE[0], 17), _RING_SIMPLE,
                        (9663676416, 192), (8053063680, 160), (2684354560, 64),
                        (1610612736, 32)]),
)


def p5_pair(message_bytes: float, nodes: int) -> tuple[str, str] | None:
    """(algorithm, protocol) the tuner sets for an all-reduce on `nodes` p5 of 8 GPUs each, or
    None where NCCL's own model chooses (two nodes or fewer, or a point in no region)."""
    if nodes <= 2:
        return None
    point = (float(message_bytes), float(8 * nodes))
    for algorithm, protocol, vertices in P5_ALL_REDUCE:
        if inside(point, vertices) >= 0:
            return algorithm, protocol
    return None
