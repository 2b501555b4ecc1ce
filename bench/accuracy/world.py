"""The catalog data a prediction uses (GPUs, fabrics, systems, constants), with figures overridable for fits."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from catalog.shipped import Shipped
from sizing.constants import ModelConstants
from sizing.hardware import GPU, Fabric


@dataclass(frozen=True, order=True)
class Param:
    """One fitted figure: a model constant (per-GPU `key` or None) or a fabric's field."""

    kind: str  # "constant" | "fabric"
    name: str  # constant name or fabric id
    key: str | None = None  # per-key entry of a constant, or the fabric field

    def __str__(self) -> str:
        if self.kind == "fabric":
            return f"{self.name}.{self.key}"
        return self.name if self.key is None else f"{self.name}[{self.key}]"


@dataclass(frozen=True)
class World:
    gpus: dict[str, GPU]
    fabrics: dict[str, Fabric]
    systems: dict[str, dict[str, Any]]
    constants: ModelConstants

    @classmethod
    def of(cls, shipped: Shipped) -> World:
        """The catalog as shipped: sold and reference hardware, the model constants."""
        return cls(shipped.all_gpus, shipped.all_fabrics, shipped.systems, shipped.constants)

    def get(self, param: Param) -> float:
        if param.kind == "fabric":
            return float(getattr(self.fabrics[param.name], param.key))
        value = getattr(self.constants, param.name)
        return float(value if param.key is None else value[param.key])

    def with_values(self, values: dict[Param, float]) -> World:
        """A copy of this world with the given figures replaced."""
        fabrics = dict(self.fabrics)
        constants = self.constants
        for param, value in values.items():
            if param.kind == "fabric":
                fabrics[param.name] = dataclasses.replace(fabrics[param.name],
                                                          **{param.key: float(value)})
            elif param.key is None:
                constants = dataclasses.replace(constants, **{param.name: float(value)})
            else:
                table = dict(getattr(constants, param.name))
                table[param.key] = float(value)
                constants = dataclasses.replace(constants,
                                                **{param.name: MappingProxyType(table)})
        return dataclasses.replace(self, fabrics=fabrics, constants=constants)
