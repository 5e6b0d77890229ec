"""Small networks for the dwc_torch tests (CPU): the layer kinds convert()
takes over and some it must leave to PyTorch, with odd sizes."""
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, c, k, stride=1):
        super().__init__()
        self.dw = nn.Conv2d(c, c, k, stride, k // 2, groups=c)
        self.pw = nn.Conv2d(c, c, 1)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.pw(self.dw(x)))


class TinyNet(nn.Module):
    def __init__(self, classes=5):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.pool = nn.MaxPool2d(3, 2, 1)
        self.b1 = Block(8, 7)
        self.b2 = Block(8, 3, stride=2)
        self.grouped = nn.Conv2d(8, 8, 3, padding=1, groups=2)
        self.avg = nn.AvgPool2d(2, ceil_mode=True, count_include_pad=False)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, classes)

    def forward(self, x):
        x = self.pool(self.stem(x))
        x = self.grouped(self.b2(self.b1(x)))
        return self.fc(self.gap(self.avg(x)).flatten(1))


def tiny():
    return TinyNet()
