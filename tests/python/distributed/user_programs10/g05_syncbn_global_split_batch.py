import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
net = nn.Sequential(nn.Conv2d(2, 3, 3, padding=1, bias=False), nn.BatchNorm2d(3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(3, 2))
init_(net, 45)
net = nn.SyncBatchNorm.convert_sync_batchnorm(net)
net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
rng = np.random.default_rng(45)
for _ in range(2):
    x = mf.tensor(rng.standard_normal((4, 2, 4, 4)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 2, 4), placement=P, sbp=S(0))
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "rm": net[1].running_mean.tolist(), "rv": net[1].running_var.tolist()}))
