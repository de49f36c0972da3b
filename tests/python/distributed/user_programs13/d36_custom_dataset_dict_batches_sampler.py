import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.utils.data import Dataset, DataLoader, DistributedSampler
from meshflow.nn.parallel import DistributedDataParallel as DDP

class Pairs(Dataset):
    def __init__(self, n):
        g = np.random.default_rng(36)
        self.x = g.standard_normal((n, 4)).astype(np.float32)
        self.y = (self.x[:, 0] > self.x[:, 1]).astype(np.int64)
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        return {"features": meshflow.from_numpy(self.x[i]), "label": int(self.y[i]), "idx": i}

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
ds = Pairs(13)
sampler = DistributedSampler(ds, shuffle=True, seed=7)
loader = DataLoader(ds, batch_size=3, sampler=sampler, num_workers=0)
net = nn.Linear(4, 2)
with meshflow.no_grad():
    net.weight.copy_(meshflow.tensor([[0.2, -0.1, 0.0, 0.1], [-0.2, 0.3, 0.1, 0.0]])); net.bias.zero_()
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.5)
seen, losses = [], []
for epoch in range(2):
    sampler.set_epoch(epoch)
    for batch in loader:
        out = model(batch["features"])
        loss = F.cross_entropy(out, batch["label"])
        opt.zero_grad(); loss.backward(); opt.step()
        seen.append(batch["idx"].tolist()); losses.append(round(loss.item(), 4))
print("RESULT", rank, json.dumps({"seen": seen, "losses": losses, "label_dtype": str(batch["label"].dtype),
                                  "num_batches": len(loader), "w": round(net.weight.sum().item(), 4)}))
dist.destroy_process_group()
