from enum import StrEnum

class CollectiveRequestOperation(StrEnum):
    ALL_GATHER = "all_gather"
    ALL_REDUCE = "all_reduce"
    ALL_TO_ALL = "all_to_all"
    P2P = "p2p"
    REDUCE_SCATTER = "reduce_scatter"

    def __str__(self) -> str:
        return str(self.value)
