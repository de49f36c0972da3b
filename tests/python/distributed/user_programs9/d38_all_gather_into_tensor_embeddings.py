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
enc = nn.Linear(4, 3); init_(enc, 38)
model = DDP(enc)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(380 + rank)
for _ in range(2):
    a = F.normalize(model(mf.from_numpy(rng.standard_normal((3, 4)).astype(np.float32))), dim=1)
    b = F.normalize(model(mf.from_numpy(rng.standard_normal((3, 4)).astype(np.float32))), dim=1)
    all_b = mf.empty(3 * world, 3)
    dist.all_gather_into_tensor(all_b, b.detach().contiguous())
    all_b[rank * 3:(rank + 1) * 3] = b  # keep the gradient of this rank's part (SimCLR style)
    logits = a @ all_b.t() / 0.5
    labels = mf.arange(3) + rank * 3
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "w": enc.weight.tolist()}))
dist.destroy_process_group()
