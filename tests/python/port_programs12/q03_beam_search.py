import torch
import torch.nn as nn
import torch.nn.functional as F
class Dec(nn.Module):
    def __init__(self, V=12, H=10):
        super().__init__(); self.emb = nn.Embedding(V, H); self.gru = nn.GRU(H, H, batch_first=True); self.out = nn.Linear(H, V)
    def step(self, tok, h):
        o, h = self.gru(self.emb(tok).unsqueeze(1), h)
        return F.log_softmax(self.out(o.squeeze(1)), dim=-1), h
dec = det(Dec(), scale=0.6)
beam, V, eos, maxlen = 3, 12, 1, 6
h0 = data(1, 1, 10, seed=4)
with torch.no_grad():
    seqs = torch.full((1, 1), 2, dtype=torch.long)
    scores = torch.zeros(1)
    h = h0
    finished = []
    for t in range(maxlen):
        logp, h = dec.step(seqs[:, -1], h)
        cand = scores.unsqueeze(1) + logp
        top, idx = cand.view(-1).topk(beam)
        b_idx = torch.div(idx, V, rounding_mode="floor")
        tok = idx % V
        seqs = torch.cat([seqs[b_idx], tok.unsqueeze(1)], dim=1)
        h = h[:, b_idx]
        scores = top
        done = tok == eos
        for i in done.nonzero(as_tuple=True)[0].tolist():
            finished.append((scores[i].item() / seqs.size(1), seqs[i].tolist()))
        scores = scores.masked_fill(done, float("-inf"))
    best = max(finished + [(s.item() / seqs.size(1), q.tolist()) for s, q in zip(scores, seqs) if torch.isfinite(s)], key=lambda x: x[0])
report(seqs=seqs, scores=scores, best=best, nfin=len(finished))
