from enum import StrEnum

class CollectiveRequestAlgorithm(StrEnum):
    AUTO = "auto"
    COLLNET = "collnet"
    NVLS = "nvls"
    RING = "ring"
    TREE = "tree"

    def __str__(self) -> str:
        return str(self.value)
