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
    share_bounds,
    share_error,
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


def test_scaling_efficiency_never_passes_what_the_bubble_leaves():
    # A 70B step: 87.2% compute, a 4.8% pipeline bubble; p90 of the error as wide as LLM's.
    lo, hi = np.array([-0.163]), np.array([0.132])
    p10, p90 = bounds("scaling_efficiency", np.array([0.872]), lo, hi, np.array([0.048]))
    assert 0.872 < p90[0] < 0.872 / (0.872 + 0.048)  # some overhead is left, the bubble all
    assert p10[0] == pytest.approx(0.872 * math.exp(-0.163))  # a slower step adds overhead
    # Far from the limit it is the speed's interval, to first order.
    small = bounds("scaling_efficiency", np.array([0.3]), lo, np.array([0.01]))[1][0]
    assert small == pytest.approx(0.3 * math.exp(0.01), rel=1e-4)


def test_the_share_s_error_is_what_its_bounds_turn_back():
    for e, b in ((0.904, 0.0), (0.872, 0.048)):
        p10, p90 = share_bounds(np.array([e]), np.array([-0.15]), np.array([0.13]), b)
        assert share_error(float(p10[0]), e, b) == pytest.approx(-0.15)
        assert share_error(float(p90[0]), e, b) == pytest.approx(0.13)
    assert share_error(0.96, 0.9, 0.05) == math.inf  # past compute / (compute + bubble)


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
