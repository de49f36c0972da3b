import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.e = nn.Embedding(10, 6)
        self.r = nn.GRU(6, 6, batch_first=True)
        self.o = nn.Linear(6, 10)

    def forward(self, x):
        return self.o(self.r(self.e(x))[0])


def apply_repetition_penalty(logits, ids, penalty):
    score = torch.gather(logits, 1, ids)
    score = torch.where(score < 0, score * penalty, score / penalty)
    return logits.scatter(1, ids, score)


m = det(M(), scale=0.5).eval()
ids = torch.tensor([[1, 2], [3, 3]])
eos = 9
finished = torch.zeros(2, dtype=torch.bool)
with torch.no_grad():
    for step in range(6):
        logits = m(ids)[:, -1, :]
        logits = apply_repetition_penalty(logits, ids, 1.3)
        if step < 2:
            logits[:, eos] = -float("inf")
        nxt = logits.argmax(-1)
        nxt = torch.where(finished, torch.full_like(nxt, 0), nxt)
        finished |= nxt == eos
        ids = torch.cat([ids, nxt[:, None]], dim=-1)
        if finished.all():
            break
report(ids=ids, finished=finished, step=step, logits=logits)
