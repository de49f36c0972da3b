import torch
import torch.nn as nn


class GRULM(nn.Module):
    def __init__(self, v=10, h=8):
        super().__init__()
        self.emb = nn.Embedding(v, h)
        self.gru = nn.GRU(h, h, num_layers=2)
        self.out = nn.Linear(h, v)

    def forward(self, x, h=None):
        o, h = self.gru(self.emb(x), h)
        return self.out(o), h


m = det(GRULM(), scale=0.4)
m.eval()
tok = torch.tensor([[2, 5]])
h = None
gen = []
with torch.inference_mode():
    logits, h = m(tok.T)
    for _ in range(6):
        nxt = logits[-1].argmax(-1)
        gen.append(nxt.item())
        logits, h = m(nxt.view(1, 1), h)
report(gen=gen, h=h, is_inf=h.is_inference())
