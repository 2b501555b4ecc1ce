import dataclasses

import numpy as np
import pytest

from catalog.shipped import shipped
from sizing.cnn import inception_v3, resnet, vgg16
from sizing.compute import (
    FLASH_BACKWARD_RATIO,
    attention_efficiency,
    gemm_efficiency,
    sequence_share,
    transformer_work,
)
from sizing.hardware import Cluster, Server
from sizing.presets import PRESETS, preset_model
from sizing.step import estimate
from sizing.workload import ATTENTION_KERNELS, GenericModel, Layout, Training, Transformer


def megatron_eq7(B, L, s, h, v):
    return 72 * B * L * s * h**2 * (1 + s / (6 * h) + v / (12 * h * L))


def test_gpt3_flops_match_megatron_formula():
    m = preset_model("gpt-3-175b")
    B = 1536
    got = m.training_flops_per_token() * B * m.seq_len
    assert got == pytest.approx(megatron_eq7(B, m.layers, m.seq_len, m.hidden, m.vocab), rel=1e-9)


def test_gpt3_flops_per_token_is_six_n_plus_attention():
    m = preset_model("gpt-3-175b")
    per_token = m.training_flops_per_token()
    attention = 3 * m.layers * 4 * m.seq_len * m.hidden
    assert per_token == pytest.approx(6 * m.params + attention, rel=0.01)
    assert 6.0 < per_token / m.params < 6.5


def test_selective_recompute_matches_korthikanti_eq8():
    m = preset_model("gpt-3-175b")
    s, h, L, v = m.seq_len, m.hidden, m.layers, m.vocab
    expected = 72 * L * s * h**2 * (1 + s / (3 * h) + v / (12 * h * L)) / s
    assert m.hardware_flops_per_token("selective") == pytest.approx(expected, rel=1e-9)


def test_full_recompute_is_four_thirds_of_the_layers():
    m = preset_model("llama-3-70b")
    layers = 3 * m.layer_forward_flops_per_token
    extra = m.hardware_flops_per_token("full") - m.training_flops_per_token()
    assert extra == pytest.approx(layers / 3)


def test_gqa_and_gated_mlp_give_published_llama_sizes():
    assert preset_model("llama-3-8b").params == pytest.approx(8.03e9, rel=0.01)
    assert preset_model("llama-3-70b").params == pytest.approx(70.6e9, rel=0.01)
    assert preset_model("llama-3-405b").params == pytest.approx(405.9e9, rel=0.01)


def test_moe_counts_total_and_active_parameters():
    m = preset_model("mixtral-8x7b")
    assert m.params == pytest.approx(46.7e9, rel=0.01)
    assert m.active_params == pytest.approx(12.9e9, rel=0.01)
    dense_equiv = Transformer("d", m.layers, m.hidden, m.heads, m.kv_heads, m.ffn_hidden,
                              m.vocab, m.seq_len, gated_mlp=True, tied_embeddings=False)
    assert m.training_flops_per_token() > dense_equiv.training_flops_per_token()
    assert m.training_flops_per_token() < 2.1 * dense_equiv.training_flops_per_token()


def test_every_preset_has_a_source():
    for p in PRESETS.values():
        assert p.source
    assert isinstance(preset_model("resnet-50"), GenericModel)
    # From its layers: 4.09 GMACs at 224x224 (torchvision), 25.6M parameters.
    assert preset_model("resnet-50").training_flops_per_sample() == pytest.approx(3 * 8.18e9,
                                                                                  rel=0.001)
    assert preset_model("resnet-50").params == pytest.approx(25.6e6, rel=0.002)


def test_gemm_efficiency_saturates_with_work_size():
    peak = 989e12
    small, mid, big = (float(gemm_efficiency(w, peak, 0.6, 25e-6)) for w in (1e9, 1e11, 1e14))
    assert small < mid < big < 0.6
    assert big == pytest.approx(0.6, rel=0.01)
    assert float(gemm_efficiency(0.6 * 25e-6 * peak, peak, 0.6, 25e-6)) == pytest.approx(0.3)


def _work(model, **kw):
    c = {"micro_batch": np.array([1.0]), "tp": np.array([1.0]), "pp": np.array([1.0]),
         "cp": np.array([1.0]), "sequence_parallel": np.array([False]),
         "recompute": np.array([0]), "recompute_fraction": np.array([1.0]),
         "flash_attention": np.array([True])}
    c.update({k: np.array([v]) for k, v in kw.items()})
    return {k: v for k, v in transformer_work(model, _paced(model, c), False).items()}


def _paced(model, c, split=False):
    """c with the columns of the stage that paces its pipeline, as sizing.step derives them."""
    c["paced_layers"], c["paced_output"] = model.pacing_stage(c["pp"], split)
    return c


def test_causal_flash_attention_executes_half_the_score_matrix_at_2_5x_backward():
    m = preset_model("llama-3-8b")
    w = _work(m)
    s, h, L = m.seq_len, m.hidden, m.layers
    # Forward 2sh (half of 4sh) per layer per token, backward 2.5x: 7sh (research section 2.1).
    assert float(w["attention_flops"][0]) == pytest.approx(L * s * s * h * 2 * (1 + 2.5))
    assert FLASH_BACKWARD_RATIO == 2.5
    # The model FLOPs keep the published conventions: full 12sh, causal 6sh per layer.
    full = m.model_flops_per_token("full") * s
    causal = m.model_flops_per_token("causal") * s
    assert full - causal == pytest.approx(6 * s * h * L * s)
    assert float(w["model_flops"][0]) == pytest.approx(full)


def test_an_encoder_executes_the_whole_score_matrix():
    m = preset_model("bert-large")
    assert not m.causal
    assert m.model_flops_per_token("causal") == m.model_flops_per_token("full")
    w = _work(m)
    assert float(w["attention_flops"][0]) == pytest.approx(
        m.layers * 4 * m.seq_len * m.hidden * m.seq_len * 3.5)


def test_selective_recompute_reruns_the_attention_forward_once():
    m = preset_model("llama-3-70b")
    none, sel = _work(m), _work(m, recompute=1)
    fwd = float(none["attention_fwd_flops"][0])
    assert float(sel["attention_flops"][0]) - float(none["attention_flops"][0]) == \
        pytest.approx(fwd)


def test_unfused_attention_materialises_scores_and_pays_their_bytes():
    m = dataclasses.replace(preset_model("gpt-3-175b"))
    flash, unfused = _work(m, tp=8.0), _work(m, tp=8.0, flash_attention=False)
    assert float(unfused["attention_flops"][0]) == 0.0
    assert float(unfused["gemm16_flops"][0]) > float(flash["gemm16_flops"][0])
    assert float(flash["fixed_bytes"][0]) < float(unfused["fixed_bytes"][0])
    assert float(unfused["fixed_bytes"][0]) > float(unfused["bytes"][0])


def test_fp8_moves_only_the_linear_layers():
    m = preset_model("llama-3-8b")
    c = {"micro_batch": np.array([1.0]), "tp": np.array([1.0]), "pp": np.array([1.0]),
         "cp": np.array([1.0]), "sequence_parallel": np.array([False]),
         "recompute": np.array([0]), "recompute_fraction": np.array([1.0]),
         "flash_attention": np.array([True])}
    c = _paced(m, c)
    bf16, fp8 = transformer_work(m, c, False), transformer_work(m, c, True)
    assert float(fp8["gemm8_flops"][0]) == pytest.approx(3 * m.linear_forward_flops_per_token
                                                         * m.seq_len)
    # Logits stay 16-bit; attention is unchanged; the casts are inside the measured speedup.
    assert float(fp8["gemm16_flops"][0]) == pytest.approx(3 * m.logits_forward_flops_per_token
                                                          * m.seq_len)
    assert float(fp8["attention_flops"][0]) == float(bf16["attention_flops"][0])
    assert float(fp8["bytes"][0]) == float(bf16["bytes"][0])


def test_non_gemm_bytes_shrink_relative_to_flops_as_models_grow():
    """Bytes per token grow with h, FLOPs with h^2: small models are memory-bound for longer."""
    small = Transformer("s", 12, 768, 12, 12, 3072, 50368, 2048)
    big = Transformer("b", 32, 4096, 32, 32, 16384, 50368, 2048)
    ratio = [float((_work(m)["bytes"][0] + _work(m)["fixed_bytes"][0])
                   / _work(m)["gemm16_flops"][0]) for m in (small, big)]
    assert ratio[0] > 3 * ratio[1]


def test_cnn_layers_reproduce_the_published_sizes():
    for net, params, gmacs in ((resnet(50), 25.56e6, 4.09), (resnet(101), 44.55e6, 7.80),
                               (resnet(152), 60.19e6, 11.51), (vgg16(), 138.36e6, 15.47),
                               (inception_v3(), 27.16e6, 5.72)):
        assert net.params == pytest.approx(params, rel=0.002), net.name
        assert sum(net.macs) / 1e9 == pytest.approx(gmacs, rel=0.002), net.name


def test_winograd_applies_to_3x3_stride_1_convolutions_only():
    _, _, eligible = vgg16().layer_arrays()
    assert eligible.sum() == 13 and not eligible[-3:].any()  # 13 convs, 3 fully connected
    r50_macs, _, r50 = resnet(50).layer_arrays()
    # The 7x7 stem, the 1x1s and the three stride-2 3x3s are direct: 13 of 16 bottleneck 3x3s.
    assert r50.sum() == 13
    assert 0.3 < r50_macs[r50].sum() / r50_macs.sum() < 0.6


def test_fp32_vgg_runs_its_convolutions_in_fewer_multiplies(constants):
    data = shipped()
    gpu = data.all_gpus["p100-sxm2-16gb"]
    one = Cluster(Server("p", "P100", gpu, 1, 1, 100, 3, True), data.all_fabrics["ib-edr-100"],
                  1, True)
    lay = Layout(1, 1, 1, zero_stage=0, recompute="none", framework="horovod")
    fp32 = estimate(one, preset_model("vgg-16"), Training(64, 64, "fp32"), lay, constants)
    direct = estimate(one, preset_model("vgg-16"), Training(64, 64, "fp32"), lay,
                      dataclasses.replace(constants, winograd_fp32_speedup=1.0))
    assert 1.5 < direct.breakdown["compute_s"] / fp32.breakdown["compute_s"] < 2.25


def test_a_conv_is_no_faster_than_its_own_activations_stream():
    """Per layer, the longer of the arithmetic and the layer's own reads and writes: a 1x1
    conv with 64 channels at 56x56 is bound by its bytes on an H100, a 512-channel 3x3 by its
    multiplies, and the bound counts each pass's input, output and weights once."""
    from sizing.cnn import _Builder
    from sizing.compute import compute_time, generic_work

    def one_layer(cin, cout, k):
        b = _Builder("one", 56)
        b.conv(cin, cout, k, k, 56, 56, 1, k // 2, k // 2)
        return GenericModel("one", 0.0, 0.0, 0.0, net=b.net())

    peak, hbm, conv_max = 989e12, 3.35e12 * 0.9, 0.4
    rates = {"peak16": np.array([peak]), "conv_max": np.array([conv_max]), "knee_s": 0.0,
             "winograd": np.array([1.0]), "hbm": np.array([hbm]), "hbm_raw": np.array([hbm]),
             "attention": np.array([peak])}
    batch = 256
    c = {"micro_batch": np.array([batch]), "recompute": np.array([0])}
    thin, wide = one_layer(64, 64, 1), one_layer(512, 512, 3)
    for net, io_bound in ((thin, True), (wide, False)):
        work = generic_work(net, c, fp32=False)
        work["bytes"] = work["fwd_bytes"] = np.zeros(1)  # the conv alone, no batch norm
        t, t_fwd = compute_time(work, rates)
        flops = 2.0 * net.net.macs[0] * batch
        io = 2.0 * (batch * (net.net.inputs[0] + net.net.outputs[0]) + net.net.weights[0])
        expected = io / hbm if io_bound else flops / (peak * conv_max)
        assert (io / hbm > flops / (peak * conv_max)) == io_bound
        assert float(t_fwd[0]) == pytest.approx(expected, rel=1e-9)
        assert float(t[0]) == pytest.approx(3 * expected, rel=1e-9)


def test_fused_attention_reaches_its_long_sequence_rate_only_at_long_sequences(constants):
    table = constants.flash2_attention_sequence_share
    share = sequence_share(table, [256, 512, 2048, 3000, 4096, 65536])
    assert share[0] == share[1] == pytest.approx(0.635)  # held below the table
    assert share[2] == pytest.approx(0.900)
    assert 0.900 < share[3] < 0.960  # between 2k and 4k, in log2 of the length
    assert share[5] == pytest.approx(1.0)


def test_each_cnn_framework_runs_16_bit_convolutions_at_its_own_kernel_rate(constants):
    data = shipped()

    def compute_s(framework, gpu="a100-80gb-sxm", precision="bf16", share=None):
        c = constants
        if share is not None:
            table = {**constants.framework_conv_efficiency, framework: share}
            c = dataclasses.replace(constants, framework_conv_efficiency=table)
        one = Cluster(Server("s", gpu, data.all_gpus[gpu], 1, 1, 100, 3, True),
                      data.all_fabrics["ib-edr-100"], 1, True)
        lay = Layout(1, 1, 1, zero_stage=0, recompute="none", framework=framework)
        training = Training(64, 64, precision)
        return estimate(one, preset_model("resnet-50"), training, lay, c).breakdown["compute_s"]

    # Halving a framework's conv rate slows only that framework's convolutions: the time
    # grows, by less than twice (batch norm and ReLU are priced by their bytes).
    mxnet = compute_s("mxnet")
    slower = compute_s("mxnet", share=constants.framework_conv_efficiency["mxnet"] / 2)
    assert 1.3 < slower / mxnet < 2.0
    assert compute_s("ddp") == compute_s("ddp", share=1.0)
    # A framework without a fitted figure takes PyTorch DDP's (the default, 1.0).
    assert constants.per_gpu("framework_conv_efficiency", "fsdp") == 1.0
    # FP32 convolutions on CUDA cores keep the one FP32 figure whatever the framework.
    p100 = {"gpu": "p100-sxm2-16gb", "precision": "fp32"}
    assert compute_s("mxnet", **p100) == compute_s("mxnet", share=0.1, **p100)


def test_each_candidate_gets_its_own_kernels_efficiency_at_its_sequence_length(constants):
    tables = {k: getattr(constants, f"{k}_attention_sequence_share") for k in ATTENTION_KERNELS}
    eff = {"flash2": np.array([0.3, 0.3, 0.3]), "flash3": np.array([0.6, 0.6, 0.6]),
           "triton": np.array([0.1, 0.1, 0.1])}
    kernels = [ATTENTION_KERNELS.index(k) for k in ("flash2", "flash3", "triton")]
    out = attention_efficiency(kernels, [16384, 16384, 2048], eff, tables)
    assert out[0] == pytest.approx(0.3)
    assert out[1] == pytest.approx(0.6)
    assert out[2] == pytest.approx(0.1 * sequence_share(tables["triton"], 2048))


def test_the_last_stage_paces_a_pipeline_with_the_output_layer_on_top_of_its_layers():
    """Megatron-LM places the output layer and the loss on the last stage: its micro-batch does
    the logits GEMM of every token and its share of the layers, the step waits on it."""
    m = preset_model("llama-3-70b")
    layers, output = m.pacing_stage(np.array([1.0, 8.0]), False)
    assert layers.tolist() == [80.0, 10.0] and output.tolist() == [True, True]
    one, eight = _work(m), _work(m, pp=8.0)
    logits = 3 * m.logits_forward_flops_per_token * m.seq_len
    # all of the logits on the last stage, not an eighth of them
    assert float(eight["gemm16_flops"][0]) == pytest.approx(
        (float(one["gemm16_flops"][0]) - logits) / 8 + logits)
    # the model FLOPs of MFU stay the model's, shared by the stages
    assert float(eight["model_flops"][0]) == pytest.approx(float(one["model_flops"][0]) / 8)


def test_with_the_embedding_in_the_split_a_middle_stage_can_pace_the_pipeline():
    """Counting the embedding and the loss as a layer each (Megatron-LM's
    --account-for-embedding/loss-in-pipeline-split): the end stages hold one layer fewer; a
    51k vocabulary's output layer is a third of a GPT-3 layer, so a middle stage paces."""
    gpt3, bloom = preset_model("gpt-3-175b"), dataclasses.replace(
        preset_model("gpt-3-175b"), layers=70, hidden=14336, heads=112, kv_heads=112,
        ffn_hidden=4 * 14336, vocab=250880)
    assert [x.tolist() for x in gpt3.pacing_stage(np.array([8.0]), True)] == [[13.0], [False]]
    # BLOOM-176B: 70 + 2 places over 12 stages, 5 layers and the output layer on the last
    # (the tr11 README's 'pp rank 11: [5 transformer blocks | embed]'), more than 6 layers
    assert [x.tolist() for x in bloom.pacing_stage(np.array([12.0]), True)] == [[5.0], [True]]


def test_an_uneven_split_leaves_the_last_stage_what_the_first_ones_do_not_hold():
    """78 layers over 12 stages without the embedding in the split: 7 on each of the first 11,
    1 and the output layer on the last (the prequel of BLOOM's 'the last stage has 1 block,
    while the rest have 7'): a 7-layer stage paces."""
    m = dataclasses.replace(preset_model("gpt-3-175b"), layers=78)
    assert [x.tolist() for x in m.pacing_stage(np.array([12.0]), False)] == [[7.0], [False]]
