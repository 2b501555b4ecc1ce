"""Ranking: rules in order, objective scores on a log scale, the fabric preference, one per pair."""

from __future__ import annotations

import math

import numpy as np

from sizing.ranking import (
    Eligibility,
    RunningBest,
    best_per_group,
    lowest_per_group,
    objective_score,
    preference_handicap,
    rank,
    sellable,
    worth_adding,
)


def test_best_per_group_picks_the_lowest_eligible_score():
    groups = np.array([0, 0, 1, 1, 2])
    score = np.array([3.0, 1.0, 2.0, 5.0, 0.5])
    eligible = np.array([True, True, False, True, False])
    assert sorted(best_per_group(groups, score, eligible).tolist()) == [1, 3]


def test_rules_count_each_candidate_under_the_first_it_fails():
    memory = np.array([True, False, True, False])
    stock = np.array([True, False, False, True])
    e = sellable([("memory", memory), ("stock", stock)])
    assert e.eligible.tolist() == [True, False, False, False]
    assert e.excluded == {"memory": 2, "stock": 1}
    assert e.ruled_out["stock"].tolist() == [False, False, True, False]


def test_a_tolerance_is_a_share_whatever_the_objective():
    hours, cost = np.array([100.0, 104.0]), np.array([1000.0, 1000.0])
    for objective in ("fastest", "balanced"):
        score = objective_score(objective, hours, cost)
        assert math.isclose(score[1] - score[0], math.log(1.04), rel_tol=1e-3)
    cheapest = objective_score("cheapest", np.array([1.0, 2.0]), np.array([100.0, 100.0]))
    assert cheapest[0] < cheapest[1]  # ties on cost broken by time


def test_the_preference_handicaps_lossy_roce_only():
    handicap = preference_handicap(0.05, lossy_roce=np.array([True, False, False]))
    assert np.allclose(handicap, [math.log1p(0.05), 0.0, 0.0])


def test_one_entry_per_pair_at_most_per_server_rank_one_the_best():
    hardware = np.array([0, 0, 1, 1, 2, 3])
    nodes = np.array([2, 4, 2, 4, 4, 4])
    score = np.array([5.0, 1.0, 3.0, 2.0, 4.0, 0.5])
    eligible = np.array([True, True, True, True, True, False])
    pairs = [("a", "x"), ("a", "y"), ("b", "x"), ("c", "x")]
    ranked = rank(hardware, nodes, score, eligible, pairs, per_server=1, limit=10)
    assert ranked.order == (1, 4)  # server a once (its best), then b; c is ineligible
    assert ranked.best[(1, 2)] == 2 and ranked.options_at(4) == {0: 1, 1: 3, 2: 4}
    assert ranked.options_of(0) == {2: 0, 4: 1}


def test_a_server_is_listed_once_at_one_node_whatever_its_fabrics():
    """At one node no fabric carries the job: the server's fabrics tie there, and the list
    shows it once (its best, ties to the first pair); past one node each pair is its own."""
    hardware = np.array([0, 1, 2, 0, 1])
    nodes = np.array([1, 1, 1, 2, 2])
    score = np.array([1.0, 1.0, 2.0, 3.0, 2.5])
    pairs = [("a", "x"), ("a", "y"), ("b", "x")]
    ranked = rank(hardware, nodes, score, np.ones(5, bool), pairs, per_server=3, limit=10)
    # (a, y)'s one-node entry ties with (a, x)'s and is left out; both pairs' two-node
    # entries are their own offers
    assert ranked.order == (0, 2, 4, 3)
    # the table keeps every pair's cell for the advice
    assert ranked.options_at(1) == {0: 0, 1: 1, 2: 2}
    more = rank(hardware, nodes, np.array([1.0, 1.0, 2.0, 3.0, 0.5]), np.ones(5, bool), pairs,
                per_server=3, limit=10)
    assert more.order == (4, 0, 2, 3)


def test_a_fabric_whose_best_is_one_node_still_offers_its_best_past_one_node():
    """Server a's one-node entry goes to its first fabric x; its second fabric y is best at
    one node too (a tie, left out), but y's two-node option beats both of server b's
    entries: in a list of three it is second, and b's one-node entry, the worst, is left
    out."""
    hardware = np.array([0, 1, 1, 2, 3])
    nodes = np.array([1, 1, 2, 1, 2])
    score = np.array([1.0, 1.0, 1.5, 3.0, 2.0])
    pairs = [("a", "x"), ("a", "y"), ("b", "x"), ("b", "y")]
    ranked = rank(hardware, nodes, score, np.ones(5, bool), pairs, per_server=3, limit=3)
    assert ranked.order == (0, 2, 4)


def test_a_pairs_oversubscribed_spines_are_one_offer_the_best_listed():
    # Hardware 1 and 2 are pair (a, x) on a 2:1 and a 3:1 spine: the table keeps both, the
    # list only the better, and the next pair takes the second place.
    hardware = np.array([0, 1, 2, 3])
    nodes = np.array([32, 32, 32, 16])
    score = np.array([1.0, 2.0, 1.5, 3.0])
    pairs = [("a", "x"), ("a", "x"), ("a", "x"), ("b", "y")]
    ranked = rank(hardware, nodes, score, np.ones(4, bool), pairs, per_server=3, limit=10)
    assert ranked.order == (0, 3)
    assert ranked.options_at(32) == {0: 0, 1: 1, 2: 2}


def test_an_option_is_taken_when_it_betters_the_score_beyond_the_tolerance_or_alone_sells():
    without = np.log(np.array([100.0, 100.0, 100.0, 100.0, 100.0]))
    with_ = np.log(np.array([94.0, 96.0, 94.0, 200.0, 90.0]))
    ok_without = np.array([True, True, True, False, True])
    ok_with = np.array([True, True, False, True, True])
    # 6% better: taken; 4% better: within the 5% tolerance, left out; not sellable with it:
    # left out however good; the only sellable one: taken however worse.
    assert worth_adding(0.05, without, with_, ok_without, ok_with).tolist() == [
        True, False, False, True, True]


def test_the_lowest_of_each_group_are_found_in_index_order():
    groups = np.array([2, 1, 2, 1, 2, 2, 1])
    score = np.array([5.0, 1.0, 3.0, 1.0, 4.0, 3.0, 0.5])
    # Group 1: 0.5 (6), then the tie at 1.0 goes to the first seen (1); group 2: 3.0 (2, 5).
    assert lowest_per_group(groups, score, 2).tolist() == [1, 2, 5, 6]
    assert lowest_per_group(groups, score, 10).tolist() == list(range(7))
    assert lowest_per_group(groups[:0], score[:0], 3).size == 0


def _lowest_by_lexsort(groups: np.ndarray, score: np.ndarray, count: int) -> np.ndarray:
    """The same choice through np.lexsort (by group, then score, ties by index)."""
    order = np.lexsort((score, groups))
    kept, seen = [], {}
    for i in order:
        seen[groups[i]] = seen.get(groups[i], 0) + 1
        if seen[groups[i]] <= count:
            kept.append(i)
    return np.sort(np.array(kept, np.intp))


def test_the_one_key_sort_chooses_as_lexsort_does_with_ties_nan_inf_and_signed_zeros():
    rng = np.random.default_rng(7)
    values = np.array([0.0, -0.0, 1.0, 1.0, 2.5, np.inf, -np.inf, np.nan, 3.0])
    for trial in range(300):
        n = int(rng.integers(1, 60))
        groups = rng.integers(-3, 5, n)
        score = rng.choice(values, n) if trial % 2 else rng.normal(size=n).round(1)
        count = int(rng.integers(1, 4))
        np.testing.assert_array_equal(lowest_per_group(groups, score, count),
                                      _lowest_by_lexsort(groups, score, count))
    # Groups too far apart for one 64-bit key take lexsort itself: the same answer.
    groups = np.array([0, 2 ** 60, 0, 2 ** 60, 0])
    score = np.array([3.0, 1.0, 1.0, np.nan, 1.0])
    np.testing.assert_array_equal(lowest_per_group(groups, score, 1),
                                  _lowest_by_lexsort(groups, score, 1))


def test_groups_in_runs_of_rows_choose_as_lexsort_does_without_sorting_the_rows():
    """A chunk's rows come cell by cell: each group one run. Its lowest per group, and the
    best eligible per group in the groups' order, are lexsort's, with ties, NaN (all of a
    run's too), infinities and signed zeros."""
    rng = np.random.default_rng(11)
    values = np.array([0.0, -0.0, 1.0, 1.0, 2.5, np.inf, -np.inf, np.nan, np.nan, 3.0])
    for trial in range(300):
        labels = rng.permutation(40)[:int(rng.integers(1, 12))]  # each group once, any order
        groups = np.repeat(labels, rng.integers(1, 6, labels.size))
        score = rng.choice(values, groups.size) if trial % 2 else rng.normal(
            size=groups.size).round(1)
        np.testing.assert_array_equal(lowest_per_group(groups, score, 1),
                                      _lowest_by_lexsort(groups, score, 1))
        eligible = rng.random(groups.size) < 0.7
        order = np.lexsort((score[eligible], groups[eligible]))
        first = np.r_[True, np.diff(groups[eligible][order]) != 0]
        expected = np.flatnonzero(eligible)[order[first]]  # by group, then score, then index
        np.testing.assert_array_equal(best_per_group(groups, score, eligible), expected)


def test_groups_in_runs_choose_their_few_lowest_round_by_round_as_lexsort_does():
    """A pool's probes: a few rows per cell, the cells in runs. Chosen round by round (runs
    no longer than the count taken whole), with ties, NaN of either sign, infinities, signed
    zeros and the smallest subnormals, they are lexsort's."""
    rng = np.random.default_rng(13)
    values = np.array([0.0, -0.0, 1.0, 1.0, -1.0, 2.5, np.inf, -np.inf, np.nan, -np.nan,
                       5e-324, -5e-324])
    for trial in range(400):
        labels = rng.permutation(60)[:int(rng.integers(1, 15))]
        groups = np.repeat(labels, rng.integers(1, 14, labels.size))
        score = rng.choice(values, groups.size) if trial % 2 else rng.normal(
            size=groups.size).round(1)
        for count in (2, 3, 8, 16, 17):
            np.testing.assert_array_equal(lowest_per_group(groups, score, count),
                                          _lowest_by_lexsort(groups, score, count))


def _random_chunks(rng, hardware, node_counts, usable):
    """Chunks of candidates over every cell, eligible only within their pair's stock."""
    for _ in range(6):
        n = 400
        cell = rng.integers(0, hardware * node_counts, n)
        nodes = cell % node_counts + 1
        in_stock = nodes <= usable[cell // node_counts]
        fits = rng.random(n) < 0.7
        e = sellable([("memory", fits), ("stock", in_stock)])
        score = rng.random(n)
        rows = np.arange(n)
        yield cell, score, e, {"x": score * 2}, rows


def test_a_running_best_kept_within_stock_keeps_and_counts_what_a_full_one_does():
    hardware, node_counts = 5, 40
    usable = np.array([0, 3, 40, 12, 7])  # nodes in stock per pair; counts are 1..40
    held = np.searchsorted(np.arange(1, node_counts + 1), usable, side="right")
    full, kept = RunningBest(hardware, node_counts), RunningBest(hardware, node_counts, held)
    for args in _random_chunks(np.random.default_rng(7), hardware, node_counts, usable):
        for best in (full, kept):
            best.add(args[0], args[1], args[1], args[2], args[3], args[4])
    cells_full, cols_full = full.kept()
    cells_kept, cols_kept = kept.kept()
    assert cells_kept.tolist() == cells_full.tolist() and cells_full.size > 0
    assert np.array_equal(cols_kept["x"], cols_full["x"])
    # Stored cells: only those within stock, however wide the node range.
    assert kept.score.size == int(held.sum()) < full.score.size
    for h in range(hardware):
        for j in range(held[h]):
            assert kept.ruled_out_of(h, j) == full.ruled_out_of(h, j)


def test_a_running_best_given_its_columns_by_a_function_keeps_what_it_keeps_given_them():
    """The columns to keep, given by a function of the winners' positions among the rows:
    asked only for those, and the same table kept."""
    hardware, node_counts = 5, 40
    usable = np.array([0, 3, 40, 12, 7])
    held = np.searchsorted(np.arange(1, node_counts + 1), usable, side="right")
    given, asked = RunningBest(hardware, node_counts, held), RunningBest(hardware, node_counts, held)
    sizes = []
    for cell, score, e, columns, rows in _random_chunks(np.random.default_rng(7), hardware,
                                                        node_counts, usable):
        given.add(cell, score, score, e, columns, rows)

        def of(at, columns=columns):
            sizes.append(at.size)
            return {k: v[at] for k, v in columns.items()}
        asked.add(cell, score, score, e, of, rows)
    assert given.kept()[0].tolist() == asked.kept()[0].tolist()
    np.testing.assert_array_equal(given.kept()[1]["x"], asked.kept()[1]["x"])
    assert 0 < max(sizes) < min(len(c) for c, *_ in _random_chunks(
        np.random.default_rng(7), hardware, node_counts, usable))


def test_candidates_counted_without_being_built_count_as_the_same_rows_added():
    """RunningBest.count (per cell and rule) and add (per row) agree on the counts the result
    reports: evaluated, excluded by rule, and the ruled out per cell, within stock and past it."""
    hardware, node_counts = 4, 10
    usable = np.array([2, 10, 0, 6])
    held = np.searchsorted(np.arange(1, node_counts + 1), usable, side="right")
    rng = np.random.default_rng(3)
    cell = rng.integers(0, hardware * node_counts, 400)
    first = rng.integers(0, 3, cell.size)  # the rule each row fails first
    rules = ("invalid_layout", "memory", "stock")
    by_row, by_cell = (RunningBest(hardware, node_counts, held) for _ in range(2))
    masks = {name: first == k for k, name in enumerate(rules)}
    by_row.add(cell, np.full(cell.size, np.inf), np.full(cell.size, np.inf),
               Eligibility(np.zeros(cell.size, bool),
                           {n: int(m.sum()) for n, m in masks.items()}, masks),
               {}, np.zeros(0, np.intp))
    cells = np.unique(cell)
    by_cell.count(cells, {n: np.array([np.count_nonzero(m & (cell == c)) for c in cells])
                          for n, m in masks.items()})
    assert by_cell.evaluated == by_row.evaluated == cell.size
    assert by_cell.excluded == by_row.excluded
    assert list(by_cell.ruled_out) == list(by_row.ruled_out) == list(rules)
    for name in rules:
        np.testing.assert_array_equal(by_cell.ruled_out[name], by_row.ruled_out[name])
        np.testing.assert_array_equal(by_cell.ruled_out_past_stock[name],
                                      by_row.ruled_out_past_stock[name])
    assert by_row.ruled_out_past_stock["memory"].sum() > 0  # cells past stock were counted
