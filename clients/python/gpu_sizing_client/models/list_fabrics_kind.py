from enum import StrEnum

class ListFabricsKind(StrEnum):
    ETHERNET = "ethernet"
    INFINIBAND = "infiniband"
    ROCE = "roce"

    def __str__(self) -> str:
        return str(self.value)
