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
from meshflow.utils.data import DataLoader, TensorDataset
from meshflow.utils.data.distributed import DistributedSampler
rng = np.random.default_rng(8)
ds = TensorDataset(mf.from_numpy(rng.standard_normal((11, 2)).astype(np.float32)), mf.from_numpy(rng.standard_normal((11,)).astype(np.float32)))
sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=True, seed=3)
loader = DataLoader(ds, batch_size=2, sampler=sampler)
net = nn.Linear(2, 1); init_(net, 8)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.2)
out = {"len": len(sampler), "idx": list(iter(sampler))}
for epoch in range(2):
    sampler.set_epoch(epoch)
    tot = mf.zeros(2)
    for x, y in loader:
        loss = F.mse_loss(model(x).squeeze(1), y, reduction="sum")
        opt.zero_grad(); (loss / len(x)).backward(); opt.step()
        tot += mf.tensor([loss.item(), float(len(x))])
    dist.all_reduce(tot)
    out[f"e{epoch}"] = (tot[0] / tot[1]).item()
out["w"] = net.weight.tolist()
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
