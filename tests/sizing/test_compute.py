import pytest

from sizing.compute import gemm_efficiency
from sizing.presets import PRESETS, preset_model
from sizing.workload import GenericModel, Transformer


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
    assert preset_model("resnet-50").training_flops_per_sample() == pytest.approx(3 * 8.18e9)


def test_gemm_efficiency_saturates_with_work_size():
    peak = 989e12
    small, mid, big = (float(gemm_efficiency(w, peak, 0.6, 25e-6)) for w in (1e9, 1e11, 1e14))
    assert small < mid < big < 0.6
    assert big == pytest.approx(0.6, rel=0.01)
    assert float(gemm_efficiency(0.6 * 25e-6 * peak, peak, 0.6, 25e-6)) == pytest.approx(0.3)
