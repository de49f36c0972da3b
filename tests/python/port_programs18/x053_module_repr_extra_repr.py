import torch
import torch.nn as nn


class Scale(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.s = s

    def extra_repr(self):
        return f"s={self.s}"

    def forward(self, x):
        return x * self.s


m = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(8, momentum=0.01),
                  nn.ReLU(inplace=True), nn.Dropout(p=0.25), Scale(0.5),
                  nn.ModuleDict({"a": nn.Linear(4, 2), "b": nn.Embedding(10, 3, padding_idx=0)}),
                  nn.LSTM(4, 5, num_layers=2, batch_first=True, bidirectional=True), nn.GELU(approximate="tanh"),
                  nn.MaxPool2d(2), nn.AdaptiveAvgPool2d((1, 1)), nn.LayerNorm([4, 4], eps=1e-6), nn.Upsample(scale_factor=2, mode="nearest"))
report(text=str(m), lin=repr(nn.Linear(2, 3, bias=False)), tr=repr(nn.TransformerEncoderLayer(4, 2, 8)).splitlines()[:4])
