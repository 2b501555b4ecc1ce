from enum import StrEnum

class CustomGpuIntraLink(StrEnum):
    NVLINK = "nvlink"
    PCIE = "pcie"
    XGMI = "xgmi"

    def __str__(self) -> str:
        return str(self.value)
