import math
import torch
import torch.nn as nn
class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=50):
        super().__init__()
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer('pe', pe)
    def forward(self, x):
        return x + self.pe[:x.size(0)]
class Forecaster(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.inp = nn.Linear(1, d); self.pos = PositionalEncoding(d)
        layer = nn.TransformerEncoderLayer(d_model=d, nhead=2, dim_feedforward=32, dropout=0.0)
        self.enc = nn.TransformerEncoder(layer, num_layers=2)
        self.head = nn.Linear(d, 1)
    def forward(self, src, mask=None, pad=None):
        x = self.pos(self.inp(src))
        y = self.enc(x, mask=mask, src_key_padding_mask=pad)
        return self.head(y)
model = det(Forecaster(), scale=0.2)
T, B = 12, 3
t = torch.arange(T + 1, dtype=torch.float32)
series = torch.stack([torch.sin(0.5 * t + k) for k in range(B)], dim=1).unsqueeze(-1)
src, tgt = series[:-1], series[1:]
mask = nn.Transformer.generate_square_subsequent_mask(T)
pad = torch.zeros(B, T, dtype=torch.bool); pad[2, 10:] = True
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
losses = []
for _ in range(5):
    opt.zero_grad()
    out = model(src, mask, pad)
    keep = (~pad).t().unsqueeze(-1)
    loss = ((out - tgt) ** 2)[keep.expand_as(out)].mean()
    loss.backward(); opt.step(); losses.append(loss.item())
model.eval()
with torch.no_grad():
    pred = model(src, mask)
report(losses=losses, mask=mask, pred=pred[-1], shape=pred.shape)
