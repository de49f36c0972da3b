import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(3, 6)
        self.cls = nn.Linear(6, 2)
        self.reg = nn.Linear(6, 1)
    def forward(self, x):
        h = mf.relu(self.body(x))
        return {"logits": self.cls(h), "value": self.reg(h).squeeze(-1)}, h.mean()

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = TwoHeads()
rng = np.random.default_rng(41)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
sched = mf.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
X = rng.standard_normal((4, 4, 3)).astype(np.float32); Y = rng.integers(0, 2, (4, 4)); V = rng.standard_normal((4, 4)).astype(np.float32)
hist = []
for i in range(4):
    sl = slice(rank * 2, (rank + 1) * 2)
    out, hm = model(mf.from_numpy(X[i, sl]))
    loss = nn.functional.cross_entropy(out["logits"], mf.from_numpy(Y[i, sl])) + nn.functional.mse_loss(out["value"], mf.from_numpy(V[i, sl])) + 0.1 * hm
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    hist.append([loss.item(), sched.get_last_lr()[0]])
print("RESULT", rank, json.dumps({"hist": hist, "reg": net.reg.weight.tolist()}))
dist.destroy_process_group()
