"""Published model presets: transformer dimensions and CNN sizes with their sources."""
from __future__ import annotations

from dataclasses import dataclass

from sizing.cnn import ConvNet, inception_v3, resnet, vgg16
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


def _cnn(preset_id: str, net: ConvNet, source: str) -> Preset:
    # Saved for the backward pass per image: each conv output and its normalised copy, plus
    # the input (16-bit: 2 bytes each); the FP32 figure GenericModel carries is twice that.
    saved_elements = 2 * net.output_elements + net.input_elements
    model = GenericModel(net.name, params=net.params, flops_per_sample=net.forward_flops,
                         activation_bytes_per_sample=4.0 * saved_elements, net=net)
    return Preset(preset_id, model, source,
                  "activation bytes: every conv output and its normalised copy (derived); "
                  "cuDNN workspaces come out of the runtime reserve",
                  dataset=IMAGENET_1K, samples_per_epoch=IMAGENET_1K_IMAGES)


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
                    vocab=128256, seq_len=8192, gated_mlp=True, tied_embeddings=False,
                    dropout=False),
        "Llama 3 Herd of Models (arXiv:2407.21783) Table 3; meta-llama/Meta-Llama-3-8B config.json "
        "(attention_dropout 0.0; the model code has no other dropout)",
    ),
    Preset(
        "llama-3-70b",
        Transformer("Llama 3 70B", layers=80, hidden=8192, heads=64, kv_heads=8, ffn_hidden=28672,
                    vocab=128256, seq_len=8192, gated_mlp=True, tied_embeddings=False,
                    dropout=False),
        "Llama 3 Herd of Models (arXiv:2407.21783) Table 3; meta-llama/Meta-Llama-3-70B config.json "
        "(attention_dropout 0.0)",
    ),
    Preset(
        "llama-3-405b",
        Transformer("Llama 3 405B", layers=126, hidden=16384, heads=128, kv_heads=8,
                    ffn_hidden=53248, vocab=128256, seq_len=8192, gated_mlp=True,
                    tied_embeddings=False, dropout=False),
        "Llama 3 Herd of Models (arXiv:2407.21783) Table 3; no dropout, as the smaller sizes",
    ),
    Preset(
        "mixtral-8x7b",
        Transformer("Mixtral 8x7B", layers=32, hidden=4096, heads=32, kv_heads=8, ffn_hidden=14336,
                    vocab=32000, seq_len=4096, experts=8, top_k=2, gated_mlp=True,
                    tied_embeddings=False, dropout=False),
        "Jiang et al. 2024, 'Mixtral of Experts' (arXiv:2401.04088) Table 1; "
        "mistralai/Mixtral-8x7B-v0.1 config.json attention_dropout 0.0",
        "context is 32k; 4096 is the training sequence length assumed here",
    ),
    Preset(
        "bert-large",
        Transformer("BERT-Large", layers=24, hidden=1024, heads=16, kv_heads=16, ffn_hidden=4096,
                    vocab=30522, seq_len=512, causal=False),
        "Devlin et al. 2019, 'BERT' (arXiv:1810.04805) section 3",
    ),
    # Convolutional networks from their layers (sizing/cnn.py): parameters and forward
    # multiply-accumulates agree with the torchvision table within 0.2%.
    _cnn("resnet-50", resnet(50), "He et al. 2016 Table 1 (v1.5: stride on the 3x3); "
         "torchvision model table (25.6M params, 4.09 GMACs at 224x224)"),
    _cnn("resnet-101", resnet(101), "He et al. 2016 Table 1; torchvision model table (44.5M "
         "params, 7.80 GMACs at 224x224)"),
    _cnn("resnet-152", resnet(152), "He et al. 2016 Table 1; torchvision model table (60.2M "
         "params, 11.51 GMACs at 224x224)"),
    _cnn("inception-v3", inception_v3(), "Szegedy et al. 2016; torchvision model table (27.2M "
         "params incl. aux head, 5.71 GMACs at 299x299)"),
    _cnn("vgg-16", vgg16(), "Simonyan and Zisserman 2015 Table 1 (configuration D); "
         "torchvision model table (138.4M params, 15.47 GMACs at 224x224)"),
]

PRESETS: dict[str, Preset] = {p.id: p for p in _PRESETS}


def preset_model(preset_id: str) -> Transformer | GenericModel:
    return PRESETS[preset_id].model
