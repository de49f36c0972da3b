import torch
import torch.nn as nn


class Scale(nn.Module):
    def __init__(self, s, learn=False):
        super().__init__()
        self.s = nn.Parameter(torch.tensor(s)) if learn else s
        self.learn = learn

    def extra_repr(self):
        return f"s={float(self.s)}, learn={self.learn}"

    def forward(self, x):
        return x * self.s


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 3), Scale(2.0), nn.ReLU(inplace=True))
        self.norm = nn.LayerNorm(3, elementwise_affine=False)
        self.drop = nn.Dropout(p=0.1)
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.conv = nn.Conv2d(1, 2, kernel_size=3, stride=2, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(2, momentum=0.2)
        self.rnn = nn.LSTM(2, 3, num_layers=2, batch_first=True)
        self.emb = nn.Embedding(5, 2, padding_idx=0)


report(r=str(Net()).split("\n"))
