import torch

V, beams, steps = 6, 3, 4
table = data(steps, beams, V, seed=107).log_softmax(-1)
scores = torch.zeros(beams)
scores[1:] = -1e9
seqs = torch.zeros(beams, 0, dtype=torch.long)
for s in range(steps):
    logp = table[s]
    cand = (scores[:, None] + logp).view(-1)
    top_scores, top_idx = cand.topk(beams)
    beam_idx = torch.div(top_idx, V, rounding_mode="floor")
    tok = top_idx % V
    seqs = torch.cat([seqs[beam_idx], tok[:, None]], dim=1)
    scores = top_scores
lp = ((5 + seqs.size(1)) / 6) ** 0.6
report(seqs=seqs, scores=scores, norm=scores / lp, fd=torch.floor_divide(torch.tensor([7, -7, 13]), 6),
       trunc=torch.div(torch.tensor([7, -7]), 6, rounding_mode="trunc"), div=torch.div(torch.tensor([7, -7]), 2))
