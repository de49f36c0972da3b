import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
lm = det(nn.Sequential(nn.Embedding(8, 5), nn.Linear(5, 8)), scale=0.6)


def beam_search(start, beams=3, steps=4):
    seqs = [([start], 0.0)]
    for _ in range(steps):
        cands = []
        for seq, score in seqs:
            lp = F.log_softmax(lm(torch.tensor(seq[-1:]))[0], -1)
            top = torch.topk(lp, beams)
            for v, i in zip(top.values.tolist(), top.indices.tolist()):
                cands.append((seq + [i], score + v))
        seqs = sorted(cands, key=lambda t: t[1], reverse=True)[:beams]
    return seqs


res = beam_search(1)
x = torch.tensor([[1]]).repeat(3, 1)
scores = torch.zeros(3)
scores[1:] = -1e9
for _ in range(4):
    lp = F.log_softmax(lm(x[:, -1]), -1) + scores[:, None]
    flat = lp.view(-1)
    top_s, top_i = flat.topk(3)
    beam_i = torch.div(top_i, 8, rounding_mode="floor")
    tok = top_i % 8
    x = torch.cat([x[beam_i], tok[:, None]], 1)
    scores = top_s
report(seqs=[s for s, _ in res], scores=[sc for _, sc in res], x=x, vs=scores)
