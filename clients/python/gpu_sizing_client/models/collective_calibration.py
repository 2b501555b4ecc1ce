from enum import StrEnum

class CollectiveCalibration(StrEnum):
    CALIBRATED = "calibrated"
    EXTRAPOLATED = "extrapolated"

    def __str__(self) -> str:
        return str(self.value)
