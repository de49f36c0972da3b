import torch
import torch.nn as nn
mods = [nn.Conv2d(3, 8, kernel_size=3, stride=2, padding=1, bias=False), nn.Conv2d(3, 8, (3, 5), dilation=2, groups=1, padding_mode="reflect", padding=2),
        nn.ConvTranspose2d(4, 2, 4, 2, 1), nn.BatchNorm2d(8, momentum=None), nn.Dropout(p=0.25, inplace=True), nn.LSTM(4, 8, num_layers=2, batch_first=True, bidirectional=True),
        nn.GRU(3, 5, dropout=0.1, num_layers=2), nn.MultiheadAttention(8, 2), nn.LeakyReLU(0.1, inplace=True), nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True),
        nn.AvgPool2d(2), nn.AdaptiveAvgPool2d((1, 1)), nn.Upsample(scale_factor=2.0, mode="nearest"), nn.Softmax(dim=-1), nn.Embedding(5, 3, padding_idx=0),
        nn.LayerNorm((4,), elementwise_affine=False), nn.GroupNorm(2, 8), nn.PReLU(num_parameters=3), nn.Hardtanh(-2.0, 2.0), nn.ELU(alpha=0.5), nn.CrossEntropyLoss(label_smoothing=0.1),
        nn.Linear(3, 2, bias=False), nn.Identity(), nn.ReLU6(), nn.Threshold(0.1, 20.0), nn.Softplus(beta=2, threshold=10), nn.Conv1d(2, 2, 3, padding="same"), nn.PixelShuffle(2),
        nn.RNN(2, 3, nonlinearity="relu"), nn.TransformerEncoderLayer(8, 2, 16)]
report(reprs=[repr(m) for m in mods])
