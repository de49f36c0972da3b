import torch

torch.manual_seed(0)
V, beams, steps = 6, 3, 4
table = data(steps, V, seed=11).log_softmax(-1)
scores = torch.zeros(beams)
scores[1:] = -1e9
seqs = torch.zeros(beams, 0, dtype=torch.long)
for t in range(steps):
    cand = scores[:, None] + table[t][None, :] + 0.01 * torch.arange(beams)[:, None]
    flat = cand.view(-1)
    top, idx = flat.topk(beams)
    beam_idx = torch.div(idx, V, rounding_mode="floor")
    tok = idx % V
    seqs = torch.cat([seqs[beam_idx], tok[:, None]], dim=1)
    scores = top
lp = ((5 + steps) / 6) ** 0.6
report(seqs=seqs, scores=scores, normed=scores / lp, best=int(scores.argmax()))
