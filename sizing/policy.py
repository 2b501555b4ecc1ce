"""The provider's sizing policy as typed values: defaults, tolerances and thresholds (policy.yaml)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class SizingPolicy:
    """Choices of the provider, not physics; each value names its reason in policy.yaml."""

    # A fabric the policy prefers (lossless over lossy RoCEv2) ranks first while its
    # objective score is within this share of a better one.
    preference_tolerance: float
    default_batch_tokens: float
    default_generic_batch: float
    max_batch_growth: float
    max_candidates_per_pass: int
    max_results_per_server: int
    # The storage advice: throughput at which checkpoints take at most this share of the run.
    checkpoint_time_share: float
    # Warn when a term bills more than this share of idle time beyond the training.
    idle_term_warning_share: float

    @classmethod
    def from_mapping(cls, table: Mapping[str, Any]) -> SizingPolicy:
        """From the parsed policy.yaml constants (name -> {value, unit, source}).

        memory_headroom_share and host_memory_reserve_share are policy too, but the model's
        memory figures read them, so they travel in ModelConstants.
        """
        missing = [f.name for f in fields(cls) if f.name not in table]
        if missing:
            raise ValueError(f"sizing policy missing: {', '.join(missing)}")
        values = {}
        for f in fields(cls):
            entry = table[f.name]
            value = entry["value"] if isinstance(entry, Mapping) else entry
            values[f.name] = int(value) if f.type == "int" else float(value)
        return cls(**values)
