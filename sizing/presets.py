"""Published model presets: transformer dimensions and CNN sizes with their sources."""
from __future__ import annotations

from dataclasses import dataclass

from sizing.workload import GenericModel, Transformer


@dataclass(frozen=True)
class Preset:
    id: str
    model: Transformer | GenericModel
    source: str
    note: str = ""
    # The training set an epoch of a sample-based model passes over, and its size.
    dataset: str = ""
    samples_per_epoch: int | None = None


# ILSVRC-2012 training split: Russakovsky et al. 2015, 'ImageNet Large Scale Visual Recognition
# Challenge' (IJCV 115); 1,281,167 images, as tensorflow/models' imagenet.py _SPLITS_TO_SIZES.
IMAGENET_1K = "ImageNet-1k (ILSVRC-2012) training set"
IMAGENET_1K_IMAGES = 1_281_167


_PRESETS = [
    Preset(
        "gpt-3-175b",
        Transformer("GPT-3 175B", layers=96, hidden=12288, heads=96, kv_heads=96,
                    ffn_hidden=4 * 12288, vocab=50257, seq_len=2048),
        "Brown et al. 2020, 'Language Models are Few-Shot Learners', Table 2.1",
    ),
    Preset(
        "llama-3-8b",
        Transformer("Llama 3 8B", layers=32, hidden=4096, heads=32, kv_heads=8, ffn_hidden=14336,
                    vocab=128256, seq_len=8192, gated_mlp=True, tied_embeddings=False),
        "Llama 3 Herd of Models (arXiv:2407.21783) Table 3; meta-llama/Meta-Llama-3-8B config.json",
    ),
    Preset(
        "llama-3-70b",
        Transformer("Llama 3 70B", layers=80, hidden=8192, heads=64, kv_heads=8, ffn_hidden=28672,
                    vocab=128256, seq_len=8192, gated_mlp=True, tied_embeddings=False),
        "Llama 3 Herd of Models (arXiv:2407.21783) Table 3; meta-llama/Meta-Llama-3-70B config.json",
    ),
    Preset(
        "llama-3-405b",
        Transformer("Llama 3 405B", layers=126, hidden=16384, heads=128, kv_heads=8,
                    ffn_hidden=53248, vocab=128256, seq_len=8192, gated_mlp=True,
                    tied_embeddings=False),
        "Llama 3 Herd of Models (arXiv:2407.21783) Table 3",
    ),
    Preset(
        "mixtral-8x7b",
        Transformer("Mixtral 8x7B", layers=32, hidden=4096, heads=32, kv_heads=8, ffn_hidden=14336,
                    vocab=32000, seq_len=4096, experts=8, top_k=2, gated_mlp=True,
                    tied_embeddings=False),
        "Jiang et al. 2024, 'Mixtral of Experts' (arXiv:2401.04088) Table 1",
        "context is 32k; 4096 is the training sequence length assumed here",
    ),
    Preset(
        "bert-large",
        Transformer("BERT-Large", layers=24, hidden=1024, heads=16, kv_heads=16, ffn_hidden=4096,
                    vocab=30522, seq_len=512),
        "Devlin et al. 2019, 'BERT' (arXiv:1810.04805) section 3",
    ),
    # Generic models: forward FLOPs = 2 x multiply-accumulates at the standard input size.
    Preset(
        "resnet-50",
        GenericModel("ResNet-50", params=25.6e6, flops_per_sample=2 * 4.09e9,
                     activation_bytes_per_sample=110e6),
        "He et al. 2016; torchvision model table (25.6M params, 4.09 GMACs at 224x224)",
        "activation bytes per sample (FP32, 224x224) is an estimate",
        dataset=IMAGENET_1K, samples_per_epoch=IMAGENET_1K_IMAGES,
    ),
    Preset(
        "resnet-101",
        GenericModel("ResNet-101", params=44.5e6, flops_per_sample=2 * 7.80e9,
                     activation_bytes_per_sample=160e6),
        "He et al. 2016; torchvision model table (44.5M params, 7.80 GMACs at 224x224)",
        "activation bytes per sample (FP32, 224x224) is an estimate",
        dataset=IMAGENET_1K, samples_per_epoch=IMAGENET_1K_IMAGES,
    ),
    Preset(
        "inception-v3",
        GenericModel("Inception v3", params=27.2e6, flops_per_sample=2 * 5.71e9,
                     activation_bytes_per_sample=130e6),
        "Szegedy et al. 2016; torchvision model table (27.2M params incl. aux head, "
        "5.71 GMACs at 299x299)",
        "activation bytes per sample (FP32, 299x299) is an estimate",
        dataset=IMAGENET_1K, samples_per_epoch=IMAGENET_1K_IMAGES,
    ),
    Preset(
        "vgg-16",
        GenericModel("VGG-16", params=138.4e6, flops_per_sample=2 * 15.47e9,
                     activation_bytes_per_sample=120e6),
        "Simonyan and Zisserman 2015; torchvision model table (138.4M params, 15.47 GMACs "
        "at 224x224)",
        "activation bytes per sample (FP32, 224x224) is an estimate",
        dataset=IMAGENET_1K, samples_per_epoch=IMAGENET_1K_IMAGES,
    ),
]

PRESETS: dict[str, Preset] = {p.id: p for p in _PRESETS}


def preset_model(preset_id: str) -> Transformer | GenericModel:
    return PRESETS[preset_id].model
