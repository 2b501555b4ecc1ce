from enum import StrEnum

class LayoutRecompute(StrEnum):
    FULL = "full"
    NONE = "none"
    SELECTIVE = "selective"

    def __str__(self) -> str:
        return str(self.value)
