import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
import os, tempfile
net = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)); init_(net, 105)
net.to_global(P, B)
net[0].weight = nn.Parameter(net[0].weight.to_global(P, S(0)))
opt = mf.optim.SGD(net.parameters(), lr=0.1)
rng = np.random.default_rng(105)
x = mf.tensor(rng.standard_normal((4, 4)).astype(np.float32), placement=P, sbp=S(0))
loss = net(x).square().mean(); opt.zero_grad(); loss.backward(); opt.step()
path = os.path.join(tempfile.gettempdir(), f"up9_g05_{world}.pt")
mf.save(net.state_dict(), path)
sd = mf.load(path, map_location="cpu")
plain = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
plain.load_state_dict(sd)
with mf.no_grad():
    y = plain(mf.ones(1, 4))
print("RESULT", rank, json.dumps({"local": all(t.is_local for t in sd.values()), "y": y.tolist()}))
