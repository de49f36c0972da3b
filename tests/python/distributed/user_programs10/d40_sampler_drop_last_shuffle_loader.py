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
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
from meshflow.utils.data import Dataset, DataLoader, DistributedSampler
class Squares(Dataset):
    def __len__(self):
        return 13
    def __getitem__(self, i):
        return mf.tensor([float(i), float(i * i) / 100.0]), mf.tensor(float(i % 3))
ds = Squares()
sampler = DistributedSampler(ds, shuffle=True, drop_last=True, seed=3)
loader = DataLoader(ds, batch_size=2, sampler=sampler, drop_last=False)
net = nn.Linear(2, 1); init_(net, 40)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.01)
seen = []
for epoch in range(2):
    sampler.set_epoch(epoch)
    for x, y in loader:
        seen.append(x[:, 0].long().tolist())
        loss = F.mse_loss(model(x).squeeze(1), y)
        opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"seen": seen, "len": len(sampler), "w": sums(net)}))
dist.destroy_process_group()
