import torch
import torch.nn as nn


class Seq2Seq(nn.Module):
    def __init__(self, V=7, H=5):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.enc = nn.GRU(H, H)
        self.dec = nn.GRUCell(H, H)
        self.out = nn.Linear(H, V)

    def forward(self, src, tgt, tf):
        _, h = self.enc(self.emb(src))
        h = h[0]
        inp = tgt[0]
        outs = []
        for t in range(1, tgt.size(0)):
            h = self.dec(self.emb(inp), h)
            o = self.out(h)
            outs.append(o)
            inp = tgt[t] if tf[t] else o.argmax(1)
        return torch.stack(outs)


m = det(Seq2Seq())
src = ints(7, 5, 2)
tgt = ints(7, 4, 2, seed=3)
tf = [True, True, False, True]
out = m(src, tgt, tf)
crit = nn.CrossEntropyLoss(ignore_index=0)
loss = crit(out.view(-1, 7), tgt[1:].reshape(-1))
loss.backward()
nn.utils.clip_grad_norm_(m.parameters(), 1.0, norm_type=2.0, error_if_nonfinite=True)
report(out=out[-1], loss=loss, g=m.dec.weight_hh.grad[0])
