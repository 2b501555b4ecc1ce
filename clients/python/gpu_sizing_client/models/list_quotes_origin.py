from enum import StrEnum

class ListQuotesOrigin(StrEnum):
    API = "api"
    PAGE = "page"

    def __str__(self) -> str:
        return str(self.value)
