from enum import StrEnum

class CollectiveAlgorithmUsed(StrEnum):
    COLLNET = "collnet"
    NVLS = "nvls"
    NVLS_TREE = "nvls_tree"
    P2P = "p2p"
    RING = "ring"
    TREE = "tree"

    def __str__(self) -> str:
        return str(self.value)
