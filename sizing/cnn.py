"""Convolutional networks layer by layer: the shapes behind per-image FLOPs and activation bytes."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ConvNet:
    """Per-layer work of one image: multiply-accumulates and output elements of each conv/fc.

    Every conv is followed by a batch norm and a ReLU (VGG: a bias and a ReLU), which read and
    write its output: memory-bound work priced by its bytes, not its FLOPs.
    """

    name: str
    macs: tuple[float, ...]  # forward multiply-accumulates per image, per layer
    outputs: tuple[float, ...]  # output elements per image, per layer
    params: float
    input_elements: float
    # Which layers are 3x3 stride-1 convolutions, those Winograd's minimal filtering computes
    # with fewer multiplies (Lavin and Gray 2016); fully connected layers never are.
    winograd: tuple[bool, ...] = ()
    # Input elements per image and weight elements of each layer: with the outputs, what a
    # layer's kernel must move through HBM at least once per pass.
    inputs: tuple[float, ...] = ()
    weights: tuple[float, ...] = ()

    @property
    def forward_flops(self) -> float:
        return 2.0 * sum(self.macs)

    @property
    def output_elements(self) -> float:
        return float(sum(self.outputs))

    def layer_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(forward MACs, output elements, Winograd-eligible) per layer, per image."""
        eligible = np.zeros(len(self.macs), bool)
        eligible[:len(self.winograd)] = self.winograd
        return np.asarray(self.macs, float), np.asarray(self.outputs, float), eligible

    def layer_io(self) -> np.ndarray:
        """Elements each layer's pass reads and writes at least once, per image (column 0) and
        per micro-batch (column 1, the weights): forward reads the input and writes the output,
        the data gradient reads the output's gradient and writes the input's, the weight
        gradient reads both activations, each reading (or writing) the weights once."""
        return np.stack([np.asarray(self.inputs, float) + np.asarray(self.outputs, float),
                         np.asarray(self.weights, float)], axis=1)


class _Builder:
    def __init__(self, name: str, size: int):
        self.name, self.size = name, size
        self.macs: list[float] = []
        self.outputs: list[float] = []
        self.winograd: list[bool] = []
        self.inputs: list[float] = []
        self.weights: list[float] = []
        self.params = 0.0

    def conv(self, cin, cout, kh, kw, h, w, stride=1, ph=0, pw=0, norm=True):
        ho, wo = (h + 2 * ph - kh) // stride + 1, (w + 2 * pw - kw) // stride + 1
        self.macs.append(float(cin * cout * kh * kw * ho * wo))
        self.outputs.append(float(cout * ho * wo))
        self.winograd.append(kh == kw == 3 and stride == 1)
        self.inputs.append(float(cin * h * w))
        self.weights.append(float(cin * cout * kh * kw))
        self.params += cin * cout * kh * kw + (2 * cout if norm else cout)
        return ho, wo

    def fc(self, cin, cout):
        self.macs.append(float(cin * cout))
        self.outputs.append(float(cout))
        self.winograd.append(False)
        self.inputs.append(float(cin))
        self.weights.append(float(cin * cout))
        self.params += cin * cout + cout

    def net(self) -> ConvNet:
        return ConvNet(self.name, tuple(self.macs), tuple(self.outputs), self.params,
                       3.0 * self.size * self.size, tuple(self.winograd), tuple(self.inputs),
                       tuple(self.weights))


def resnet(depth: int) -> ConvNet:
    """ResNet v1.5 (He et al. 2016 Table 1; the stride on the 3x3 conv, as torchvision)."""
    blocks = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}[depth]
    b = _Builder(f"ResNet-{depth}", 224)
    b.conv(3, 64, 7, 7, 224, 224, 2, 3, 3)
    h = w = 56  # after the 3x3/2 max pool
    cin = 64
    for stage, (count, width) in enumerate(zip(blocks, (64, 128, 256, 512))):
        for i in range(count):
            stride = 2 if i == 0 and stage > 0 else 1
            h1, w1 = b.conv(cin, width, 1, 1, h, w)
            h2, w2 = b.conv(width, width, 3, 3, h1, w1, stride, 1, 1)
            b.conv(width, 4 * width, 1, 1, h2, w2)
            if i == 0:
                b.conv(cin, 4 * width, 1, 1, h, w, stride)
            cin, h, w = 4 * width, h2, w2
    b.fc(2048, 1000)
    return b.net()


def vgg16() -> ConvNet:
    """VGG-16, configuration D (Simonyan and Zisserman 2015 Table 1): 3x3 convs with biases."""
    b = _Builder("VGG-16", 224)
    h = w = 224
    cin = 3
    for c in (64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M",
              512, 512, 512, "M"):
        if c == "M":
            h, w = h // 2, w // 2
            continue
        h, w = b.conv(cin, c, 3, 3, h, w, 1, 1, 1, norm=False)
        cin = c
    for cin, cout in ((512 * 7 * 7, 4096), (4096, 4096), (4096, 1000)):
        b.fc(cin, cout)
    return b.net()


def inception_v3() -> ConvNet:
    """Inception v3 at 299x299 with its auxiliary head (Szegedy et al. 2016; torchvision)."""
    b = _Builder("Inception v3", 299)
    c = b.conv
    h, w = c(3, 32, 3, 3, 299, 299, 2)
    h, w = c(32, 32, 3, 3, h, w)
    h, w = c(32, 64, 3, 3, h, w, 1, 1, 1)
    h = w = (h - 3) // 2 + 1
    h, w = c(64, 80, 1, 1, h, w)
    h, w = c(80, 192, 3, 3, h, w)
    h = w = (h - 3) // 2 + 1

    def block_a(cin, pool):
        c(cin, 64, 1, 1, h, w)
        c(cin, 48, 1, 1, h, w)
        c(48, 64, 5, 5, h, w, 1, 2, 2)
        c(cin, 64, 1, 1, h, w)
        c(64, 96, 3, 3, h, w, 1, 1, 1)
        c(96, 96, 3, 3, h, w, 1, 1, 1)
        c(cin, pool, 1, 1, h, w)
        return 224 + pool

    cin = block_a(192, 32)
    cin = block_a(cin, 64)
    cin = block_a(cin, 64)
    h2, w2 = c(cin, 384, 3, 3, h, w, 2)
    c(cin, 64, 1, 1, h, w)
    c(64, 96, 3, 3, h, w, 1, 1, 1)
    c(96, 96, 3, 3, h, w, 2)
    cin, h, w = 384 + 96 + cin, h2, w2

    def block_c(cin, c7):
        c(cin, 192, 1, 1, h, w)
        c(cin, c7, 1, 1, h, w)
        c(c7, c7, 1, 7, h, w, 1, 0, 3)
        c(c7, 192, 7, 1, h, w, 1, 3, 0)
        c(cin, c7, 1, 1, h, w)
        c(c7, c7, 7, 1, h, w, 1, 3, 0)
        c(c7, c7, 1, 7, h, w, 1, 0, 3)
        c(c7, c7, 7, 1, h, w, 1, 3, 0)
        c(c7, 192, 1, 7, h, w, 1, 0, 3)
        c(cin, 192, 1, 1, h, w)
        return 768

    for c7 in (128, 160, 160, 192):
        cin = block_c(cin, c7)
    aux = (h - 5) // 3 + 1
    c(768, 128, 1, 1, aux, aux)
    c(128, 768, 5, 5, aux, aux)
    b.fc(768, 1000)
    c(cin, 192, 1, 1, h, w)
    h2, w2 = c(192, 320, 3, 3, h, w, 2)
    c(cin, 192, 1, 1, h, w)
    c(192, 192, 1, 7, h, w, 1, 0, 3)
    c(192, 192, 7, 1, h, w, 1, 3, 0)
    c(192, 192, 3, 3, h, w, 2)
    cin, h, w = 320 + 192 + cin, h2, w2

    def block_e(cin):
        c(cin, 320, 1, 1, h, w)
        c(cin, 384, 1, 1, h, w)
        c(384, 384, 1, 3, h, w, 1, 0, 1)
        c(384, 384, 3, 1, h, w, 1, 1, 0)
        c(cin, 448, 1, 1, h, w)
        c(448, 384, 3, 3, h, w, 1, 1, 1)
        c(384, 384, 1, 3, h, w, 1, 0, 1)
        c(384, 384, 3, 1, h, w, 1, 1, 0)
        c(cin, 192, 1, 1, h, w)
        return 2048

    cin = block_e(cin)
    cin = block_e(cin)
    b.fc(2048, 1000)
    return b.net()
