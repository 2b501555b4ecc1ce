from enum import StrEnum

class QuoteRequestTerm(StrEnum):
    MONTHLY = "monthly"
    VALUE_1 = "1y"
    VALUE_2 = "3y"

    def __str__(self) -> str:
        return str(self.value)
