from enum import StrEnum

class QuoteStatus(StrEnum):
    ACCEPTED = "accepted"
    DRAFT = "draft"
    EXPIRED = "expired"
    SENT = "sent"

    def __str__(self) -> str:
        return str(self.value)
