"""The switch between the model's compiled kernels and their numpy reference.

A kernel is a loop over candidates written with the same operations, in the same order, as the
numpy path it replaces, compiled by numba without fast-math (so no reassociation and no fused
multiply-add), with numpy's error model (a division by zero gives inf or NaN, as in numpy, not an
exception) and cached on disk: its outputs are bit-identical to the reference's, which the
tests compare it with. `SIZING_KERNELS=numpy` in the environment runs the numpy path alone
(numba is then not imported).
"""
from __future__ import annotations

import logging
import os

import numpy as np

CHOICES = ("compiled", "numpy")


def _choice(value: str) -> bool:
    """Whether SIZING_KERNELS asks for the compiled kernels; a value it does not know stops
    the import, as the service's settings do."""
    if value not in CHOICES:
        raise ValueError(f"SIZING_KERNELS must be one of {', '.join(CHOICES)}, not {value!r}")
    return value == "compiled"


ENABLED = _choice(os.environ.get("SIZING_KERNELS", "compiled"))


def kernel(function):
    """`function` compiled (cached beside its module, else in the user's cache directory), or as
    it is with the switch off. Where numba finds no writable place for its cache (a read-only
    install with a read-only home, as in a read-only container), the kernel is compiled in each
    process at its first use instead of failing the import."""
    if not ENABLED:
        return function
    import numba

    try:
        return numba.njit(cache=True, error_model="numpy")(function)
    except RuntimeError as no_cache:  # numba: "cannot cache function ...: no locator available"
        logging.getLogger(__name__).warning("%s; compiled in this process instead", no_cache)
        return numba.njit(cache=False, error_model="numpy")(function)


# The dtypes `column` is asked for, by the type that names them: most columns' dtype is the
# same object, whose identity is cheaper to test than equality with a type (some arrays carry
# an equal dtype of their own: equality decides then).
_DTYPES = {float: np.dtype(float), bool: np.dtype(bool), np.int64: np.dtype(np.int64)}
_SCALARS = (float, int)  # Python numbers a float column is filled with, exactly
_FLOAT = _DTYPES[float]


def column(x, rows: int, dtype=float) -> np.ndarray:
    """x as a contiguous, writeable column of `rows` of `dtype` (a kernel is compiled for one
    type of each)."""
    want = _DTYPES.get(dtype, dtype)
    if (type(x) is np.ndarray and (x.dtype is want or x.dtype == want)
            and x.shape == (rows,)):
        flags = x.flags  # built at each read of the attribute: read once
        if flags.c_contiguous and flags.writeable:
            return x  # most columns are one already: no copy
    if type(x) in _SCALARS and want is _FLOAT:
        return np.full(rows, x, want)  # a figure shared by every row: at a third of the cost
    # A fresh writeable array: numba types a read-only one apart, which would compile the
    # kernel once more for it.
    return np.array(np.broadcast_to(np.asarray(x, dtype), (rows,)))
