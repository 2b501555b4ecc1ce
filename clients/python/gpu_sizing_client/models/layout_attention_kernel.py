from enum import StrEnum

class LayoutAttentionKernel(StrEnum):
    FLASH2 = "flash2"
    FLASH3 = "flash3"
    TRITON = "triton"

    def __str__(self) -> str:
        return str(self.value)
