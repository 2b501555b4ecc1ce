"""What the shown result reads of one pass of the model over several configurations is what
each gives alone: the ranked rows against step.estimate, the servers' one-node references
against one_node_reference of each."""

from __future__ import annotations

from service.sizing_run import search
from service.sizing_shown import one_nodes, ranked_estimates, shown_cluster
from sizing import series
from sizing.step import estimate
from sizing.workload import Training
from tests.service.test_search_exact import QUESTIONNAIRES, request_of

EVERY_SERVER = QUESTIONNAIRES["70B by tokens, every server and fabric"]


def test_the_ranked_rows_in_one_pass_are_each_rows_estimate(snap):
    found = search(snap, request_of(EVERY_SERVER), lambda _f: None)
    assert len(found.ranked.order) > 1  # the pass, not the one-row path
    together = ranked_estimates(found)
    for i in found.ranked.order:
        training = Training(int(found.cands.global_batch[i]), found.cands.micro_batch_at(i),
                            found.request.precision)
        alone = estimate(shown_cluster(found, i), found.request.model, training,
                         found.cands.layout_at(i), snap.constants)
        assert together[i] == alone, i


def test_the_servers_one_node_references_in_one_pass_are_each_servers_own(snap):
    found = search(snap, request_of(EVERY_SERVER), lambda _f: None)
    servers = {s for s, _ in found.hardware}
    assert len(servers) > 1
    together = one_nodes(found, servers)
    request = found.request
    for server in servers:
        cluster = found.clusters[next(h for h, (s, _) in enumerate(found.hardware)
                                      if s == server)]
        assert together[server] == series.one_node_reference(
            cluster, request.model, found.training, request.layout, request.batch_fixed,
            found.max_global_batch, snap.constants), server
