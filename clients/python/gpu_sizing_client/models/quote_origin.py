from enum import StrEnum

class QuoteOrigin(StrEnum):
    API = "api"
    PAGE = "page"

    def __str__(self) -> str:
        return str(self.value)
