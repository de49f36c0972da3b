import torch
import torch.nn as nn
import torch.nn.functional as F
class Attn(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.proj = nn.Linear(h, h)
        self.ctx = nn.Parameter(torch.zeros(h))
    def forward(self, x, mask):
        u = torch.tanh(self.proj(x))
        s = (u @ self.ctx).masked_fill(~mask, -1e9)
        a = F.softmax(s, -1)
        return (a.unsqueeze(-1) * x).sum(1), a
class HAN(nn.Module):
    def __init__(self, V=15, E=4, H=3):
        super().__init__()
        self.emb = nn.Embedding(V, E, padding_idx=0)
        self.wgru = nn.GRU(E, H, batch_first=True, bidirectional=True)
        self.watt = Attn(2 * H)
        self.sgru = nn.GRU(2 * H, H, batch_first=True, bidirectional=True)
        self.satt = Attn(2 * H)
        self.fc = nn.Linear(2 * H, 2)
    def forward(self, docs):
        B, S, W = docs.shape
        words = docs.view(B * S, W)
        h, _ = self.wgru(self.emb(words))
        sent, wa = self.watt(h, words != 0)
        sent = sent.view(B, S, -1)
        hs, _ = self.sgru(sent)
        doc, sa = self.satt(hs, (docs != 0).any(-1))
        return self.fc(doc), wa.view(B, S, W), sa
model = det(HAN())
docs = ints(15, 2, 3, 5)
docs[0, 2] = 0
docs[1, :, 3:] = 0
out, wa, sa = model(docs)
F.cross_entropy(out, torch.tensor([0, 1])).backward()
report(out=out, wa=wa[1, 0], sa=sa, g=model.satt.ctx.grad)
