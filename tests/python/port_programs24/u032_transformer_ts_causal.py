import torch
import torch.nn as nn
import math


class TSTransformer(nn.Module):
    def __init__(self, d=8, L=16):
        super().__init__()
        self.inp = nn.Linear(1, d)
        pe = torch.zeros(L, d)
        pos = torch.arange(L).unsqueeze(1).float()
        div = torch.exp(torch.arange(0, d, 2).float() * (-math.log(10000.0) / d))
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe)
        layer = nn.TransformerEncoderLayer(d, 2, 16, dropout=0.0, batch_first=True, norm_first=True)
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.out = nn.Linear(d, 1)

    def forward(self, x):
        L = x.shape[1]
        mask = nn.Transformer.generate_square_subsequent_mask(L)
        h = self.enc(self.inp(x) + self.pe[:L], mask=mask, is_causal=True)
        return self.out(h)


model = det(TSTransformer())
t = torch.arange(64).float()
s = torch.sin(t / 3).unfold(0, 17, 4).unsqueeze(-1)
x, y = s[:, :-1], s[:, 1:]
opt = torch.optim.AdamW(model.parameters(), lr=0.005)
hist = []
for _ in range(4):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step(); hist.append(loss.item())
model.eval()
with torch.no_grad():
    a = model(x[:1])
    x2 = x[:1].clone(); x2[:, 10:] = 5.0
    b = model(x2)
report(pe=model.pe[3], hist=hist, causal=torch.allclose(a[:, :10], b[:, :10], atol=1e-5), mask=nn.Transformer.generate_square_subsequent_mask(3))
