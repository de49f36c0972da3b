import json, os, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(3, 4); self.decoder = nn.Linear(4, 3)
        self.register_buffer("scale", meshflow.tensor(2.0))
    def forward(self, x):
        return self.decoder(meshflow.relu(self.encoder(x))) * self.scale
net = Net(); init_(net, 68)
model = DDP(net)
names = [n for n, _ in model.named_parameters()]
bufs = [n for n, _ in model.named_buffers()]
opt = meshflow.optim.SGD([{"params": model.module.encoder.parameters(), "lr": 0.1}, {"params": model.module.decoder.parameters(), "lr": 0.01}])
rng = np.random.default_rng(680 + rank)
x = meshflow.from_numpy(rng.standard_normal((4, 3)).astype(np.float32))
F.mse_loss(model(x), x).backward(); opt.step()
print("RESULT", rank, json.dumps({"names": names, "bufs": bufs, "sd": list(model.state_dict())[:3], "w": sums(net)}))
dist.destroy_process_group()
