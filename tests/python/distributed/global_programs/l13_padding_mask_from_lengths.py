import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class Pool(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 6, padding_idx=0)
        self.fc = nn.Linear(6, 2)
    def forward(self, ids, lengths):
        mask = mf.arange(ids.size(1)).unsqueeze(0) < lengths.unsqueeze(1)
        h = self.emb(ids) * mask.unsqueeze(-1)
        pooled = h.sum(1) / lengths.unsqueeze(1).float()
        return self.fc(pooled)

mf.manual_seed(13)
m = Pool(); m.to_global(P, B)
opt = mf.optim.Adagrad(m.parameters(), lr=0.1)
rng = np.random.default_rng(13)
losses = []
for _ in range(3):
    lens = rng.integers(1, 7, 4)
    ids = rng.integers(1, 20, (4, 6)) * (np.arange(6)[None] < lens[:, None])
    lengths = mf.tensor(lens)                               # local, every rank's same
    x = mf.tensor(ids, placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 2, 4), placement=P, sbp=S(0))
    loss = F.cross_entropy(m(x, lengths), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "pad_row": m.emb.weight[0].abs().sum().item()}))
