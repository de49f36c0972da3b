import torch
import torch.nn as nn
# TOL 1e-3


class Cls(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 8, padding_idx=0)
        self.pos = nn.Parameter(torch.zeros(1, 6, 8))
        layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True, activation="gelu", norm_first=True)
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        pad = x == 0
        h = self.enc(self.emb(x) + self.pos[:, :x.size(1)], src_key_padding_mask=pad)
        h = h.masked_fill(pad.unsqueeze(-1), 0).sum(1) / (~pad).sum(1, keepdim=True)
        return self.head(h)


m = det(Cls(), seed=1)
opt = torch.optim.AdamW(m.parameters(), lr=1e-2)
x = torch.tensor([[3, 4, 5, 0, 0, 0], [7, 8, 9, 10, 11, 0], [1, 2, 0, 0, 0, 0]])
y = torch.tensor([0, 2, 1])
hist = []
for _ in range(4):
    loss = nn.functional.cross_entropy(m(x), y, label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
m.eval()
with torch.no_grad():
    pred = m(x).softmax(-1)
report(hist=hist, pred=pred, pad_row=m.emb.weight[0])
