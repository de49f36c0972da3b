import torch
import torch.nn as nn

T, B, K = 5, 2, 4
emis = data(B, T, K)
trans = data(K, K, seed=9)
mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]], dtype=torch.bool)
score = emis[:, 0]
history = []
for t in range(1, T):
    nxt = score.unsqueeze(2) + trans.unsqueeze(0) + emis[:, t].unsqueeze(1)
    best, idx = nxt.max(dim=1)
    score = torch.where(mask[:, t].unsqueeze(1), best, score)
    history.append(idx)
best_last = score.argmax(dim=1)
seq_ends = mask.long().sum(1) - 1
paths = []
for b in range(B):
    tag = best_last[b].item()
    path = [tag]
    for idx in reversed(history[: seq_ends[b]]):
        tag = idx[b][tag].item()
        path.append(tag)
    paths.append(path[::-1])
alpha = emis[:, 0]
for t in range(1, T):
    a = torch.logsumexp(alpha.unsqueeze(2) + trans + emis[:, t].unsqueeze(1), dim=1)
    alpha = torch.where(mask[:, t, None], a, alpha)
report(paths=paths, logZ=torch.logsumexp(alpha, 1), score=score.max(1).values)
