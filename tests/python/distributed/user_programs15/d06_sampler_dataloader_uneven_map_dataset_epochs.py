import json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.utils.data import Dataset, DataLoader
from meshflow.utils.data.distributed import DistributedSampler
from meshflow.nn.parallel import DistributedDataParallel as DDP


class Squares(Dataset):
    def __init__(self, n):
        self.x = np.linspace(-1, 1, n * 2).reshape(n, 2).astype(np.float32)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return meshflow.tensor(self.x[i]), meshflow.tensor([float(i)])


dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
ds = Squares(11)
sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=False)
loader = DataLoader(ds, batch_size=4, sampler=sampler, num_workers=0)
net = nn.Linear(2, 1)
with meshflow.no_grad():
    net.weight.copy_(meshflow.tensor([[0.1, -0.3]])); net.bias.zero_()
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.01)
seen, sizes, losses = [], [], []
for epoch in range(2):
    sampler.set_epoch(epoch)
    ep = []
    for x, idx in loader:
        ep.extend(int(v) for v in idx.flatten().tolist())
        sizes.append(list(x.shape))
        loss = F.mse_loss(model(x), idx / 10.0)
        opt.zero_grad(); loss.backward(); opt.step()
        losses.append(round(loss.item(), 5))
    seen.append(ep)
print("RESULT", rank, json.dumps({"len": len(sampler), "batches": len(loader), "seen": seen, "sizes": sizes,
                                  "losses": losses, "num_samples": sampler.num_samples, "total": sampler.total_size}))
dist.destroy_process_group()
