"""Accuracy harness: published measurements run through the performance model, each as its source ran it."""
from pathlib import Path

HERE = Path(__file__).resolve().parent
MEASUREMENT_FILES = (HERE / "measurements.csv", HERE / "holdout_measurements.csv",
                     HERE / "check_measurements.csv")
SPECS_FILE = HERE / "specs.yaml"
# Runs whose source gives their peak memory per GPU or says they ran out of memory: run
# through the memory model alone (bench/accuracy/memory.py), apart from the rows above.
MEMORY_FILE = HERE / "memory_measurements.csv"
