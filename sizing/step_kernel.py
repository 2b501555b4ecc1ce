"""The step time assembled from its terms, compiled, one candidate at a time: the same
operations in the same order as sizing.step's `assemble` (the numpy reference), for the base
pass and the pass with each kind's straggler stretch at once (sizing.kernels)."""
from __future__ import annotations

import numpy as np

from sizing.kernels import column, kernel

# The base pass's columns, in the order _kernel returns them (then the stretched step).
BASE_KEYS = ("contention", "step", "compute", "tp_exp", "cp_exp", "offload_exp", "optimizer",
             "tp_hid", "ep_exp", "ep_hid", "pp_exp", "dp_exp", "dp_hid", "zero_exp",
             "zero_hid", "bubble")
# The terms, in _kernel's order, and the stretches by kind.
TERMS = ("t_comp_mb", "tp_mb", "tp_kept", "ep_mb", "cp_mb", "offload_mb", "m", "bubble_share", "pp_total",
         "t_ar", "t_bucket", "hide_bwd", "hide_fwd", "grad_hide", "chunk_grad_hide",
         "gather_hide", "chunk_gather_hide", "chunks", "t_z1_rs", "t_z1_ag", "t_z1_rsb",
         "t_z1_agb", "net_rs", "net_ag", "host_rs", "host_ag", "t_replica", "t_rep1",
         "gather_passes", "sync_hidden", "t_z2_rs", "t_rsb", "t_z2_ag", "t_opt")
FLAGS = ("dp_overlap", "z1", "gather_hidden", "tp_inter", "sync", "has_dp", "z3", "z2")
KINDS = ("tp", "ep", "pp", "cp", "dp", "zero", "rep")


@kernel
def _kernel(a_t_comp_mb, a_tp_mb, a_tp_kept, a_ep_mb, a_cp_mb, a_offload_mb, a_m, a_bubble_share, a_pp_total,
            a_t_ar, a_t_bucket, a_hide_bwd, a_hide_fwd, a_grad_hide, a_chunk_grad_hide,
            a_gather_hide, a_chunk_gather_hide, a_chunks, a_t_z1_rs, a_t_z1_ag, a_t_z1_rsb,
            a_t_z1_agb, a_net_rs, a_net_ag, a_host_rs, a_host_ag, a_t_replica, a_t_rep1,
            a_gather_passes, a_sync_hidden, a_t_z2_rs, a_t_rsb, a_t_z2_ag, a_t_opt, a_dp_overlap,
            a_z1, a_gather_hidden, a_tp_inter, a_sync, a_has_dp, a_z3, a_z2, a_s_tp, a_s_ep,
            a_s_pp, a_s_cp, a_s_dp, a_s_zero, a_s_rep, units, any_sync, kept_ep, slowdown):
    """Both passes of every row: the base pass (every stretch 1) writes its columns, the
    stretched pass its step time."""
    rows = a_t_comp_mb.shape[0]
    base = np.empty((16, rows))
    slow = np.empty(rows)
    for i in range(rows):
        t_comp_mb = a_t_comp_mb[i]
        tp_mb = a_tp_mb[i]
        kept_tp = a_tp_kept[i]
        ep_mb = a_ep_mb[i]
        cp_mb = a_cp_mb[i]
        offload_mb = a_offload_mb[i]
        m = a_m[i]
        bubble_share = a_bubble_share[i]
        pp_total = a_pp_total[i]
        t_ar = a_t_ar[i]
        t_bucket = a_t_bucket[i]
        hide_bwd = a_hide_bwd[i]
        hide_fwd = a_hide_fwd[i]
        grad_hide = a_grad_hide[i]
        chunk_grad_hide = a_chunk_grad_hide[i]
        gather_hide = a_gather_hide[i]
        chunk_gather_hide = a_chunk_gather_hide[i]
        chunks = a_chunks[i]
        t_z1_rs = a_t_z1_rs[i]
        t_z1_ag = a_t_z1_ag[i]
        t_z1_rsb = a_t_z1_rsb[i]
        t_z1_agb = a_t_z1_agb[i]
        net_rs = a_net_rs[i]
        net_ag = a_net_ag[i]
        host_rs = a_host_rs[i]
        host_ag = a_host_ag[i]
        t_replica = a_t_replica[i]
        t_rep1 = a_t_rep1[i]
        gather_passes = a_gather_passes[i]
        sync_hidden = a_sync_hidden[i]
        t_z2_rs = a_t_z2_rs[i]
        t_rsb = a_t_rsb[i]
        t_z2_ag = a_t_z2_ag[i]
        t_opt = a_t_opt[i]
        dp_overlap = a_dp_overlap[i]
        z1 = a_z1[i]
        gather_hidden = a_gather_hidden[i]
        tp_inter = a_tp_inter[i]
        sync = a_sync[i]
        has_dp = a_has_dp[i]
        z3 = a_z3[i]
        z2 = a_z2[i]
        for stretched in range(2):
            s_tp = a_s_tp[i] if stretched else 1.0
            s_ep = a_s_ep[i] if stretched else 1.0
            s_pp = a_s_pp[i] if stretched else 1.0
            s_cp = a_s_cp[i] if stretched else 1.0
            s_dp = a_s_dp[i] if stretched else 1.0
            s_zero = a_s_zero[i] if stretched else 1.0
            s_rep = a_s_rep[i] if stretched else 1.0
            tp_t = tp_mb * s_tp
            ep_t = ep_mb * s_ep
            tp_exp = tp_t * kept_tp
            ep_exp = ep_t * kept_ep
            cp_t = cp_mb * s_cp
            t_mb = t_comp_mb + tp_exp + ep_exp + cp_t + offload_mb
            pipeline = m * t_mb
            bubble = bubble_share * t_mb
            pp_exp = pp_total * s_pp
            ar = t_ar * s_dp
            last = t_bucket * s_dp
            exp_ar = (np.minimum(ar, np.maximum(last, np.maximum(ar / chunks - chunk_grad_hide,
                                                                 ar - grad_hide)))
                      if dp_overlap else ar)
            z1_rs, z1_ag = t_z1_rs * s_dp, t_z1_ag * s_dp
            if z1:
                exp_ar = (np.minimum(z1_rs, np.maximum(t_z1_rsb * s_dp, np.maximum(
                    z1_rs / chunks - chunk_grad_hide, z1_rs - grad_hide)))
                          if dp_overlap else z1_rs)
                ar = z1_rs
            z1_exp = (np.minimum(z1_ag, np.maximum(t_z1_agb * s_dp, np.maximum(
                z1_ag / chunks - chunk_gather_hide, z1_ag - gather_hide)))
                      if gather_hidden and not tp_inter else z1_ag)
            rs1, ag1 = net_rs * s_zero, net_ag * s_zero
            if any_sync:
                rs1, ag1 = rs1 + host_rs, ag1 + host_ag
            exp_fwd = np.minimum(ag1, np.maximum(ag1 / units, ag1 - hide_fwd))
            bwd_comm = ag1 + rs1
            exp_bwd = np.minimum(bwd_comm, np.maximum(bwd_comm / units, bwd_comm - hide_bwd))
            rep = t_replica * s_rep
            rs = m * rs1 + rep
            ag = m * gather_passes * ag1
            z_total = rs + ag
            exp_z = m * (exp_fwd + exp_bwd) + (
                np.maximum(rep - hide_bwd, np.minimum(rep, t_rep1 * s_rep)) if dp_overlap
                else rep)
            if any_sync and sync:
                exp_z = np.maximum(z_total - m * sync_hidden, 0.0)
            if tp_inter:
                exp_ar = ar
                exp_z = z_total
            z_safe = z_total if z_total > 0 else 1.0
            z2_rs = t_z2_rs * s_dp
            z2_exp = (np.minimum(z2_rs, np.maximum(t_rsb * s_dp, z2_rs - hide_bwd))
                      if dp_overlap and not tp_inter else z2_rs)
            z2_ag = t_z2_ag * s_dp
            dp_total = (rs if z3 else (m * z2_rs if z2 else ar)) if has_dp else 0.0
            z3_dp_exp = exp_z * rs / z_safe
            if any_sync and sync:
                z3_dp_exp = rs
            dp_exp = (z3_dp_exp if z3 else (m * z2_exp if z2 else exp_ar)) if has_dp else 0.0
            if has_dp and z3:
                zero_total, zero_exp = ag, exp_z - z3_dp_exp
            elif has_dp and z2:
                zero_total, zero_exp = z2_ag, z2_ag
            elif z1:
                zero_total, zero_exp = z1_ag, z1_exp
            else:
                zero_total, zero_exp = 0.0, 0.0
            tp_hid, ep_hid = m * (tp_t - tp_exp), m * (ep_t - ep_exp)
            dp_hid, zero_hid = dp_total - dp_exp, zero_total - zero_exp
            contention = slowdown * (tp_hid + ep_hid + dp_hid + zero_hid)
            step = pipeline + bubble + pp_exp + dp_exp + zero_exp + t_opt + contention
            if stretched:
                slow[i] = step
            else:
                (base[0, i], base[1, i], base[2, i], base[3, i], base[4, i], base[5, i],
                 base[6, i], base[7, i], base[8, i], base[9, i], base[10, i], base[11, i],
                 base[12, i], base[13, i], base[14, i], base[15, i]) = (
                    contention, step, m * t_comp_mb, m * tp_exp, m * cp_t, m * offload_mb,
                    t_opt, tp_hid, m * ep_exp, ep_hid, pp_exp, dp_exp, dp_hid, zero_exp,
                    zero_hid, bubble)
    return base, slow


def assembled(stretches: dict, units: float, any_sync: bool, constants,
              **terms) -> tuple[dict, np.ndarray]:
    """sizing.step's two passes of `assemble`: the base pass's columns (BASE_KEYS) and the
    stretched step time. `stretches`: by kind, None where no candidate's traffic of that kind
    crosses nodes (a stretch of 1: t x 1 is t); `terms`: TERMS and FLAGS by name."""
    rows = terms["t_comp_mb"].shape[0]
    ones = None  # one column of 1 for every kind without a stretch (the kernel reads it only)
    if any(stretches[k] is None for k in KINDS):
        ones = np.ones(rows)
    base, slow = _kernel(*(column(terms[k], rows) for k in TERMS),
                         *(column(terms[k], rows, bool) for k in FLAGS),
                         *(ones if stretches[k] is None else column(stretches[k], rows)
                           for k in KINDS),
                         float(units), bool(any_sync),
                         1 - constants.ep_overlap_fraction,
                         float(constants.overlap_compute_slowdown))
    return dict(zip(BASE_KEYS, base)), slow
