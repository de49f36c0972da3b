import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist

def average_gradients(model):
    size = float(dist.get_world_size())
    for param in model.parameters():
        dist.all_reduce(param.grad.data, op=dist.ReduceOp.SUM)
        param.grad.data /= size

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mf.manual_seed(1234)
net = nn.Sequential(nn.Conv2d(1, 3, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(12, 4))
rng = np.random.default_rng(24)
with mf.no_grad():
    for p in net.parameters():
        p.copy_(mf.from_numpy(rng.standard_normal(tuple(p.shape)).astype(np.float32) * 0.3))
opt = mf.optim.SGD(net.parameters(), lr=0.01, momentum=0.5)
X = rng.standard_normal((3, 4, 1, 6, 6)).astype(np.float32); Y = rng.integers(0, 4, (3, 4))
epoch_loss = 0.0
for i in range(3):
    x, y = mf.from_numpy(X[i, rank * 2:(rank + 1) * 2]), mf.from_numpy(Y[i, rank * 2:(rank + 1) * 2])
    opt.zero_grad()
    loss = F.nll_loss(F.log_softmax(net(x), dim=1), y)
    epoch_loss += loss.item()
    loss.backward()
    average_gradients(net)
    opt.step()
print("RESULT", rank, json.dumps({"loss": epoch_loss / 3, "w": net[4].bias.tolist()}))
dist.destroy_process_group()
