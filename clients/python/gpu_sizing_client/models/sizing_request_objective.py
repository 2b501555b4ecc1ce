from enum import StrEnum

class SizingRequestObjective(StrEnum):
    BALANCED = "balanced"
    CHEAPEST = "cheapest"
    FASTEST = "fastest"

    def __str__(self) -> str:
        return str(self.value)
