"""Large-kernel networks for the dwc_torch end-to-end benchmark (timm has
neither), written from the published architectures' shapes:

  replknet31b   RepLKNet-31B-style: stem (3x3/2 conv, 3x3 depthwise, 1x1,
                3x3/2 depthwise), four stages of channels 128/256/512/1024
                and depths 2/2/18/2 whose large-kernel blocks are 1x1 ->
                depthwise 31/29/27/13 (with the parallel 5x5 depthwise
                branch of training-time re-parameterisation) -> 1x1, each
                followed by a ConvFFN block; transitions 1x1 + 3x3/2
                depthwise.
  slak_t        SLaK-T-style: ConvNeXt-T layout (channels 96/192/384/768,
                depths 3/3/9/3, 4x4/4 stem, 2x2/2 downsampling) whose 7x7
                depthwise convolution is replaced by the decomposed pair
                51x5 + 5x51 (49, 47, 13 in the later stages) plus a 5x5
                depthwise branch, summed.

Factories take no arguments (python -m dwc_torch.aot --model
large_kernel_nets:replknet31b ...). BatchNorm stands in for every norm
layer (channels_last friendly); the benchmark compares the same module
with and without dwc_torch.convert, so the choice does not favour either.
"""

import torch
import torch.nn as nn


def _dw(c, k, stride=1):
    kh, kw = (k, k) if isinstance(k, int) else k
    return nn.Conv2d(c, c, (kh, kw), stride, (kh // 2, kw // 2), groups=c, bias=False)


def _bn_relu(c):
    return nn.Sequential(nn.BatchNorm2d(c), nn.ReLU(inplace=True))


class _ReparamLK(nn.Module):
    """Depthwise KxK + depthwise 5x5 (training-time form), each with BN."""

    def __init__(self, c, k):
        super().__init__()
        self.large = nn.Sequential(_dw(c, k), nn.BatchNorm2d(c))
        self.small = nn.Sequential(_dw(c, 5), nn.BatchNorm2d(c)) if k > 5 else None

    def forward(self, x):
        y = self.large(x)
        return y + self.small(x) if self.small is not None else y


class _RepLKBlock(nn.Module):
    def __init__(self, c, k):
        super().__init__()
        self.pre = nn.BatchNorm2d(c)
        self.pw1 = nn.Sequential(nn.Conv2d(c, c, 1, bias=False), _bn_relu(c))
        self.lk = _ReparamLK(c, k)
        self.act = nn.ReLU(inplace=True)
        self.pw2 = nn.Sequential(nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c))

    def forward(self, x):
        return x + self.pw2(self.act(self.lk(self.pw1(self.pre(x)))))


class _ConvFFN(nn.Module):
    def __init__(self, c, ratio=4):
        super().__init__()
        self.net = nn.Sequential(nn.BatchNorm2d(c), nn.Conv2d(c, c * ratio, 1, bias=False),
                                 nn.BatchNorm2d(c * ratio), nn.GELU(),
                                 nn.Conv2d(c * ratio, c, 1, bias=False), nn.BatchNorm2d(c))

    def forward(self, x):
        return x + self.net(x)


class RepLKNet(nn.Module):
    def __init__(self, kernels=(31, 29, 27, 13), depths=(2, 2, 18, 2),
                 channels=(128, 256, 512, 1024), num_classes=1000):
        super().__init__()
        c0 = channels[0]
        self.stem = nn.Sequential(
            nn.Conv2d(3, c0, 3, 2, 1, bias=False), _bn_relu(c0),
            _dw(c0, 3), _bn_relu(c0),
            nn.Conv2d(c0, c0, 1, bias=False), _bn_relu(c0),
            _dw(c0, 3, 2), _bn_relu(c0))
        stages = []
        for i, (k, d, c) in enumerate(zip(kernels, depths, channels)):
            blocks = []
            for _ in range(d):
                blocks += [_RepLKBlock(c, k), _ConvFFN(c)]
            if i + 1 < len(channels):
                n = channels[i + 1]
                blocks += [nn.Conv2d(c, n, 1, bias=False), _bn_relu(n), _dw(n, 3, 2),
                           _bn_relu(n)]
            stages.append(nn.Sequential(*blocks))
        self.stages = nn.Sequential(*stages)
        self.norm = nn.BatchNorm2d(channels[-1])
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(channels[-1], num_classes)

    def forward(self, x):
        x = self.norm(self.stages(self.stem(x)))
        return self.head(torch.flatten(self.pool(x), 1))


class _SLaKKernel(nn.Module):
    """Depthwise K x 5 + 5 x K + 5 x 5, summed (each with BN)."""

    def __init__(self, c, k):
        super().__init__()
        if k > 5:
            self.branches = nn.ModuleList(
                [nn.Sequential(_dw(c, kk), nn.BatchNorm2d(c)) for kk in ((k, 5), (5, k), 5)])
        else:
            self.branches = nn.ModuleList([nn.Sequential(_dw(c, k), nn.BatchNorm2d(c))])

    def forward(self, x):
        y = self.branches[0](x)
        for b in self.branches[1:]:
            y = y + b(x)
        return y


class _SLaKBlock(nn.Module):
    def __init__(self, c, k):
        super().__init__()
        self.dw = _SLaKKernel(c, k)
        self.mlp = nn.Sequential(nn.BatchNorm2d(c), nn.Conv2d(c, 4 * c, 1), nn.GELU(),
                                 nn.Conv2d(4 * c, c, 1))
        self.gamma = nn.Parameter(torch.full((1, c, 1, 1), 1e-6))

    def forward(self, x):
        return x + self.gamma * self.mlp(self.dw(x))


class SLaK(nn.Module):
    def __init__(self, kernels=(51, 49, 47, 13), depths=(3, 3, 9, 3),
                 channels=(96, 192, 384, 768), num_classes=1000):
        super().__init__()
        layers = [nn.Conv2d(3, channels[0], 4, 4), nn.BatchNorm2d(channels[0])]
        for i, (k, d, c) in enumerate(zip(kernels, depths, channels)):
            if i:
                layers += [nn.BatchNorm2d(channels[i - 1]),
                           nn.Conv2d(channels[i - 1], c, 2, 2)]
            layers += [_SLaKBlock(c, k) for _ in range(d)]
        self.features = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(channels[-1], num_classes)

    def forward(self, x):
        return self.head(torch.flatten(self.pool(self.features(x)), 1))


def replknet31b():
    return RepLKNet()


def slak_t():
    return SLaK()


FACTORIES = {"replknet31b": replknet31b, "slak_t": slak_t}
