import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
net = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3)); init_(net, 49)
net.to_global(P, B)
net[0].weight = nn.Parameter(net[0].weight.detach().to_global(P, S(0)))
net[2].weight = nn.Parameter(net[2].weight.detach().to_global(P, S(1)))
opt = mf.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
rng = np.random.default_rng(49)
norms = []
for step in range(2):
    opt.zero_grad()
    for micro in range(2):
        x = mf.tensor(rng.standard_normal((4, 4)).astype(np.float32), placement=P, sbp=S(0))
        y = mf.tensor(rng.integers(0, 3, 4), placement=P, sbp=S(0))
        (F.cross_entropy(net(x), y) / 2).backward()
    norms.append(nn.utils.clip_grad_norm_(net.parameters(), 0.5).item())
    opt.step()
print("RESULT", rank, json.dumps({"norms": norms, "w": [round(p.sum().item(), 5) for p in net.parameters()]}))
