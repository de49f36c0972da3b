import torch
import torch.nn as nn

torch.manual_seed(0)
V, eos = 6, 5
emb = det(nn.Embedding(V, 4), seed=1)
head = det(nn.Linear(4, V), seed=2)
ids = torch.tensor([[1], [2], [3]])
done = torch.zeros(3, dtype=torch.bool)
lengths = torch.ones(3, dtype=torch.long)
for _ in range(6):
    h = emb(ids).mean(1)
    nxt = head(h).argmax(-1)
    nxt = torch.where(done, torch.full_like(nxt, eos), nxt)
    ids = torch.cat([ids, nxt.unsqueeze(1)], 1)
    lengths += (~done).long()
    done |= nxt == eos
    if done.all():
        break
report(ids=ids, lengths=lengths, done=done)
