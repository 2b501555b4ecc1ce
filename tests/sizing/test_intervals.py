"""Prediction intervals: split-conformal bounds, the prior on estimated constants, orientation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from catalog.shipped import shipped
from sizing.intervals import (
    Calibration,
    bounds,
    estimated_constants,
    figure_intervals,
    prior_draws,
    score_bounds,
    widened,
)


@pytest.fixture(scope="module")
def calibration() -> Calibration:
    return Calibration.from_mapping(shipped().document["uncertainty"])


def test_a_time_turns_the_speed_s_interval_over():
    speed = bounds("tokens_per_s", np.array([100.0]), np.array([-0.2]), np.array([0.1]))
    time = bounds("step_time_s", np.array([10.0]), np.array([-0.2]), np.array([0.1]))
    assert speed[0][0] == pytest.approx(100 * math.exp(-0.2))
    assert time[1][0] == pytest.approx(10 * math.exp(0.2))  # slower than predicted: longer
    assert bounds("mfu", np.array([0.9]), np.array([-0.2]), np.array([0.5]))[1][0] == 1.0


def test_the_prior_widens_only_extrapolated_configurations(calibration):
    lo, hi = widened(-0.3, 0.1, np.array([0.0, 0.2]))
    assert lo[0] == -0.3 and hi[0] == 0.1
    assert lo[1] < -0.3 and hi[1] > 0.1
    out = figure_intervals({"c_llm_throughput": {"tokens_per_s": np.array([100.0, 100.0])}},
                           calibration, np.array([0.2, 0.2]), np.array([True, False]))
    p10, p90 = out["tokens_per_s"]
    assert p90[1] / p10[1] > p90[0] / p10[0]


def test_draws_move_only_estimated_constants_and_keep_fractions_at_most_one():
    constants = shipped().constants
    names = set(estimated_constants(constants))
    assert "runtime_reserved_gb" in names and "bytes_per_param_optimizer" not in names
    draws = prior_draws(constants, 0.3)
    assert prior_draws(constants, 0.3) == draws  # seeded: the same request, the same interval
    for draw in draws:
        assert draw.bytes_per_param_optimizer == constants.bytes_per_param_optimizer
        assert draw.overlap_efficiency <= 1.0
    assert len({d.runtime_reserved_gb for d in draws}) == len(draws)


def test_balanced_scores_move_twice_as_far():
    best, worst = score_bounds(np.array([0.0]), np.array([-0.2]), np.array([0.1]), "balanced")
    assert best[0] == pytest.approx(-0.2) and worst[0] == pytest.approx(0.4)
