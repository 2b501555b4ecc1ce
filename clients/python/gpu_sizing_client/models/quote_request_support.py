from enum import StrEnum

class QuoteRequestSupport(StrEnum):
    BUSINESS = "business"
    ENTERPRISE = "enterprise"
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)
