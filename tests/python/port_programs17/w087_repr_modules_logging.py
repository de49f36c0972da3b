import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, kernel_size=3, stride=2, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU(inplace=True),
                                      nn.MaxPool2d(kernel_size=3, stride=2, padding=1), nn.Dropout2d(p=0.2))
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.head = nn.ModuleDict({"cls": nn.Linear(8, 10), "box": nn.Linear(8, 4, bias=False)})
        self.blocks = nn.ModuleList([nn.LayerNorm(8, eps=1e-6), nn.GELU(), nn.Identity()])
        self.rnn = nn.LSTM(8, 16, num_layers=2, batch_first=True, bidirectional=True, dropout=0.1)
        self.emb = nn.Embedding(100, 8, padding_idx=0, max_norm=1.0)
        self.scale = nn.Parameter(torch.ones(1))


n = Net()
report(r=repr(n), named=[k for k, _ in n.named_modules()][:8], np=sum(p.numel() for p in n.parameters()),
       r2=repr(nn.MultiheadAttention(8, 2, batch_first=True)), r3=repr(nn.TransformerEncoderLayer(8, 2, 16)).splitlines()[:4],
       r4=[repr(m) for m in (nn.Conv1d(2, 4, 3, dilation=2, padding="same"), nn.ConvTranspose2d(2, 2, 2, 2), nn.AvgPool2d(2), nn.Upsample(scale_factor=2.0),
                             nn.GroupNorm(2, 8), nn.InstanceNorm1d(4, affine=True), nn.LeakyReLU(0.1), nn.Softmax(dim=-1), nn.Flatten(), nn.Unflatten(1, (2, 4)),
                             nn.CrossEntropyLoss(label_smoothing=0.1), nn.PReLU(3), nn.ELU(alpha=0.5), nn.Hardtanh(-2, 2), nn.Threshold(0.1, 0.0), nn.ZeroPad2d(1), nn.Bilinear(2, 3, 4))])
