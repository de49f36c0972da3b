import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

class RankAware(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.register_buffer("seen", mf.zeros(()))
    def forward(self, x):
        r = dist.get_rank() if dist.is_initialized() else 0
        self.seen += x.shape[0]
        return self.fc(x) * (1.0 + 0.5 * r) / dist.get_world_size()

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = RankAware()
rng = np.random.default_rng(10)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
model = DDP(net, broadcast_buffers=False)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
for i in range(3):
    x = mf.from_numpy(rng.standard_normal((2 + rank, 3)).astype(np.float32))
    loss = model(x).square().mean()
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"w": net.fc.weight.tolist(), "seen": net.seen.item()}))
dist.destroy_process_group()
