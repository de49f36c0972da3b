import math
import torch
import torch.nn as nn
class TinyLM(nn.Module):
    def __init__(self, V=20, d=8):
        super().__init__()
        self.tok = nn.Embedding(V, d)
        self.pos = nn.Parameter(torch.zeros(1, 16, d))
        layer = nn.TransformerEncoderLayer(d, 2, 16, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, 1)
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, V, bias=False)
        self.head.weight = self.tok.weight
    def forward(self, idx):
        T = idx.size(1)
        x = self.tok(idx) + self.pos[:, :T]
        mask = nn.Transformer.generate_square_subsequent_mask(T)
        return self.head(self.ln(self.blocks(x, mask=mask, is_causal=True)))
model = det(TinyLM(), 0, 0.2)
idx = ints(20, 3, 9)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
L = []
for _ in range(3):
    logits = model(idx[:, :-1])
    loss = nn.functional.cross_entropy(logits.view(-1, 20), idx[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step(); L.append(loss.item())
tied = model.head.weight is model.tok.weight
n = sum(p.numel() for p in model.parameters())
ppl = math.exp(L[-1])
report(L=L, tied=tied, n=n, ppl=ppl, keys=len(model.state_dict()))
# TOL 1e-3
