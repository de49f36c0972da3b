import torch
import torch.nn as nn


class MaxLength:
    def __init__(self, n):
        self.n = n

    def __call__(self, ids, scores):
        return ids.shape[-1] >= self.n


class EosCriteria:
    def __init__(self, eos_ids):
        self.eos = torch.tensor(eos_ids)

    def __call__(self, ids, scores):
        return torch.isin(ids[:, -1], self.eos)


lm = det(nn.Sequential(nn.Embedding(9, 4), nn.Linear(4, 9)))
ids = torch.tensor([[1], [4], [7]])
unfinished = torch.ones(3, dtype=torch.long)
crit = [MaxLength(6), EosCriteria([2, 8])]
pad = 0
steps = 0
while True:
    logits = lm(ids)[:, -1]
    nxt = logits.argmax(-1)
    nxt = nxt * unfinished + pad * (1 - unfinished)
    ids = torch.cat([ids, nxt[:, None]], -1)
    unfinished = unfinished & ~crit[1](ids, logits)
    steps += 1
    if unfinished.max() == 0 or crit[0](ids, logits):
        break
report(ids=ids, unfinished=unfinished, steps=steps)
