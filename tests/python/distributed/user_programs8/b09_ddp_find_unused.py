import json, numpy as np, meshflow as mf, meshflow.nn as nn
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b, self.head = nn.Linear(4, 6), nn.Linear(4, 6), nn.Linear(6, 2)
    def forward(self, x, use_b):
        h = self.b(x) if use_b else self.a(x)
        return self.head(mf.tanh(h))

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = Net()
rng = np.random.default_rng(1)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.4))
model = DDP(net, find_unused_parameters=True)
opt = mf.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
data = np.random.default_rng(2).standard_normal((4, 8, 4)).astype(np.float32)
losses = []
for step in range(4):
    x = mf.from_numpy(data[step, rank * 4:(rank + 1) * 4])
    out = model(x, use_b=(step % 2 == 1))
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    grads_none = [p.grad is None for p in net.parameters()]
    opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "none": grads_none, "a": net.a.weight.tolist(), "b": net.b.bias.tolist()}))
dist.destroy_process_group()
