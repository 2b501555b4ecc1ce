from enum import StrEnum

class SizingOrigin(StrEnum):
    API = "api"
    PAGE = "page"

    def __str__(self) -> str:
        return str(self.value)
