from enum import StrEnum

class ListSizingsOrigin(StrEnum):
    API = "api"
    PAGE = "page"

    def __str__(self) -> str:
        return str(self.value)
