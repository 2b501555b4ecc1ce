from enum import StrEnum

class FixedLayoutOffload(StrEnum):
    NONE = "none"
    OPTIMIZER = "optimizer"
    OPTIMIZERACTIVATIONS = "optimizer+activations"

    def __str__(self) -> str:
        return str(self.value)
