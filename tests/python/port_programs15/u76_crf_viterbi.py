import torch
import torch.nn as nn


class CRF(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.trans = nn.Parameter(torch.zeros(n, n))
        self.start = nn.Parameter(torch.zeros(n))
        self.end = nn.Parameter(torch.zeros(n))

    def log_partition(self, em, mask):
        score = self.start + em[:, 0]
        for t in range(1, em.size(1)):
            nxt = torch.logsumexp(score.unsqueeze(2) + self.trans + em[:, t].unsqueeze(1), dim=1)
            score = torch.where(mask[:, t].unsqueeze(1), nxt, score)
        return torch.logsumexp(score + self.end, 1)

    def gold(self, em, tags, mask):
        B, T, _ = em.shape
        s = self.start[tags[:, 0]] + em[torch.arange(B), 0, tags[:, 0]]
        for t in range(1, T):
            m = mask[:, t].float()
            s = s + (self.trans[tags[:, t - 1], tags[:, t]] + em[torch.arange(B), t, tags[:, t]]) * m
        last = tags.gather(1, (mask.sum(1) - 1).unsqueeze(1)).squeeze(1)
        return s + self.end[last]

    def decode(self, em, mask):
        score = self.start + em[:, 0]
        hist = []
        for t in range(1, em.size(1)):
            best, idx = (score.unsqueeze(2) + self.trans).max(1)
            nxt = best + em[:, t]
            hist.append(idx)
            score = torch.where(mask[:, t].unsqueeze(1), nxt, score)
        score = score + self.end
        paths = []
        lens = mask.sum(1)
        for b in range(em.size(0)):
            best = score[b].argmax().item()
            path = [best]
            for h in reversed(hist[: lens[b] - 1]):
                best = h[b][best].item()
                path.append(best)
            paths.append(path[::-1])
        return paths


crf = det(CRF(4), scale=0.5)
em = data(2, 5, 4)
tags = ints(4, 2, 5)
mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]], dtype=torch.bool)
nll = (crf.log_partition(em, mask) - crf.gold(em, tags, mask)).mean()
nll.backward()
report(nll=nll, paths=crf.decode(em, mask), gtrans=crf.trans.grad.sum(0), gstart=crf.start.grad)
