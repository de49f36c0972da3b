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
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)); init_(net, 44)
net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1)
rng = np.random.default_rng(44)
x = mf.tensor(rng.standard_normal((6, 3)).astype(np.float32), placement=P, sbp=S(0))
y = mf.tensor(rng.standard_normal((6, 1)).astype(np.float32), placement=P, sbp=S(0))
loss = F.mse_loss(net(x), y)
opt.zero_grad(); loss.backward(); opt.step()
value = loss.item()
if rank == 0:
    print(f"loss {value:.4f}")
state = {k: v.to_local() for k, v in net.state_dict().items()}
path = os.path.join(tempfile.gettempdir(), f"g04_{os.getpid()}.pt")
if rank == 0:
    mf.save(state, path)
    back = mf.load(path, map_location="cpu")
    os.remove(path)
    plain = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)); plain.load_state_dict(back)
    pred = plain(mf.ones(1, 3)).item()
else:
    pred = None
out = net(mf.tensor(np.ones((1, 3), np.float32), placement=P, sbp=B)).item()
print("RESULT", rank, json.dumps({"loss": value, "out": out, "pred0": pred if rank == 0 else out}))
