"""The catalog files shipped in catalog/data as sizing value objects, without a database."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from catalog.files import read_catalog, read_reference_systems
from catalog.snapshot import fabric_of, gpu_of
from sizing.constants import ModelConstants
from sizing.hardware import GPU, Fabric

DATA_DIR = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class Shipped:
    """The validated files (``document``, ``reference``) and the value objects built from them.

    ``gpus`` and ``fabrics`` hold what the provider sells; ``reference_gpus`` and
    ``reference_fabrics`` add the hardware of published measurements (reference_systems.yaml).
    """

    document: dict[str, Any]
    reference: dict[str, Any]
    constants: ModelConstants
    gpus: dict[str, GPU]
    fabrics: dict[str, Fabric]
    reference_gpus: dict[str, GPU]
    reference_fabrics: dict[str, Fabric]

    @property
    def all_gpus(self) -> dict[str, GPU]:
        return {**self.gpus, **self.reference_gpus}

    @property
    def all_fabrics(self) -> dict[str, Fabric]:
        return {**self.fabrics, **self.reference_fabrics}

    @property
    def systems(self) -> dict[str, dict[str, Any]]:
        return {entry["id"]: entry for entry in self.reference["systems"]}


def _reference_gpu(entry: dict[str, Any]) -> GPU:
    gpu = gpu_of(entry)
    fp32 = entry.get("fp32_tflops")
    return gpu if fp32 is None else dataclasses.replace(gpu, fp32_tflops=float(fp32))


def read(data_dir: Path = DATA_DIR) -> Shipped:
    """Read and validate every file in `data_dir`, catalog and reference systems alike."""
    document = read_catalog(data_dir)
    reference = read_reference_systems(data_dir, document)
    return Shipped(
        document=document,
        reference=reference,
        constants=ModelConstants.from_mapping(document["model"], document["policy"]),
        gpus={g["id"]: gpu_of(g) for g in document["gpus"]},
        fabrics={f["id"]: fabric_of(f) for f in document["fabrics"]},
        reference_gpus={g["id"]: _reference_gpu(g) for g in reference["gpus"]},
        reference_fabrics={f["id"]: fabric_of(f) for f in reference["fabrics"]},
    )


@lru_cache(maxsize=1)
def shipped() -> Shipped:
    """The files of catalog/data, read once per process."""
    return read(DATA_DIR)
