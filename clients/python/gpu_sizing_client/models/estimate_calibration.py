from enum import StrEnum

class EstimateCalibration(StrEnum):
    CALIBRATED = "calibrated"
    EXTRAPOLATED = "extrapolated"

    def __str__(self) -> str:
        return str(self.value)
