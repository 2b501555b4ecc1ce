from enum import StrEnum

class PricedLineBilling(StrEnum):
    HOURLY = "hourly"
    MONTHLY = "monthly"
    ONE_TIME = "one_time"

    def __str__(self) -> str:
        return str(self.value)
