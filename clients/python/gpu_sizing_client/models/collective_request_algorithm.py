from enum import StrEnum

class CollectiveRequestAlgorithm(StrEnum):
    AUTO = "auto"
    COLLNET = "collnet"
    NVLS = "nvls"
    NVLS_TREE = "nvls_tree"
    RING = "ring"
    TREE = "tree"

    def __str__(self) -> str:
        return str(self.value)
