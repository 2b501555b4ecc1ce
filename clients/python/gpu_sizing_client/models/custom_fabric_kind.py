from enum import StrEnum

class CustomFabricKind(StrEnum):
    ETHERNET = "ethernet"
    INFINIBAND = "infiniband"
    ROCE = "roce"

    def __str__(self) -> str:
        return str(self.value)
