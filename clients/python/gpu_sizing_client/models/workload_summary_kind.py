from enum import StrEnum

class WorkloadSummaryKind(StrEnum):
    GENERIC = "generic"
    TRANSFORMER = "transformer"

    def __str__(self) -> str:
        return str(self.value)
