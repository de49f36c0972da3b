import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
net = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 4))
init_(net, 4)
model = DDP(net)
opt = mf.optim.Adam(model.parameters(), lr=5e-3)
rng = np.random.default_rng(4)
X = rng.standard_normal((16, 5)).astype(np.float32); Y = (X[:, 0] > 0).astype(np.int64) + 2 * (X[:, 1] > 0)
mine = slice(rank * 8, rank * 8 + 8)
for _ in range(5):
    loss = F.cross_entropy(model(mf.from_numpy(X[mine])), mf.from_numpy(Y[mine]))
    opt.zero_grad(); loss.backward(); opt.step()
model.eval()
with mf.no_grad():
    pred = model(mf.from_numpy(X[mine])).argmax(dim=1)
correct = (pred == mf.from_numpy(Y[mine])).sum()
counts = [mf.zeros_like(correct) for _ in range(world)]
dist.all_gather(counts, correct)
preds = [mf.empty_like(pred) for _ in range(world)]
dist.all_gather(preds, pred)
print("RESULT", rank, json.dumps({"counts": [int(c) for c in counts], "acc": sum(int(c) for c in counts) / 16,
                                  "preds": mf.cat(preds).tolist(), "dtype": str(correct.dtype)}))
dist.destroy_process_group()
