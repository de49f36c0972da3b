import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedConvLM(nn.Module):
    def __init__(self, V, D, k=3, layers=2):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.k = k
        self.convs = nn.ModuleList([nn.Conv1d(D, 2 * D, k) for _ in range(layers)])
        self.head = nn.Linear(D, V)

    def forward(self, x):
        h = self.emb(x).transpose(1, 2)
        for conv in self.convs:
            res = h
            h = F.glu(conv(F.pad(h, (self.k - 1, 0))), dim=1) + res
        return self.head(h.transpose(1, 2))


V = 11
seq = ints(V, 3, 9)
model = det(GatedConvLM(V, 6))
opt = torch.optim.Adam(model.parameters(), lr=5e-3, weight_decay=0.01)
for _ in range(5):
    logits = model(seq[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, V), seq[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    opt.step()
with torch.no_grad():
    a = model(seq[:, :5])[:, :4]
    b = model(seq[:, :-1])[:, :4]
report(loss=loss.item(), causal=torch.allclose(a, b, atol=1e-6), ppl=torch.exp(loss).item())
