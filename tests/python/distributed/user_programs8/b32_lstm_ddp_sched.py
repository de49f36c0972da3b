import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(12, 5)
        self.rnn = nn.LSTM(5, 6, batch_first=True)
        self.out = nn.Linear(6, 3)
    def forward(self, tok):
        h, _ = self.rnn(self.emb(tok))
        return self.out(h)

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = Tagger()
rng = np.random.default_rng(23)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.3))
model = DDP(net)
opt = mf.optim.Adam(model.parameters(), lr=0.02)
sched = mf.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.05, total_steps=4)
T = rng.integers(0, 12, (4, 4, 5)); L = rng.integers(0, 3, (4, 4, 5))
losses, lrs = [], []
for i in range(4):
    tok, lab = mf.from_numpy(T[i, rank * 2:(rank + 1) * 2]), mf.from_numpy(L[i, rank * 2:(rank + 1) * 2])
    loss = nn.functional.cross_entropy(model(tok).reshape(-1, 3), lab.reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    losses.append(loss.item()); lrs.append(sched.get_last_lr()[0])
print("RESULT", rank, json.dumps({"losses": losses, "lrs": lrs, "w": net.out.weight.tolist()}))
dist.destroy_process_group()
