from enum import StrEnum

class SizingPriceBilledBy(StrEnum):
    HOUR = "hour"
    MONTH = "month"

    def __str__(self) -> str:
        return str(self.value)
