import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
B, S = mf.sbp.broadcast, mf.sbp.split
one = mf.placement("cpu", ranks=[0])
everyone = mf.placement("cpu", ranks=list(range(world)))

def model():
    return nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 2))
mf.manual_seed(43)
net = model(); net.to_global(one, B)        # trained on rank 0's placement alone
opt = mf.optim.SGD(net.parameters(), lr=0.1)
rng = np.random.default_rng(43)
x = mf.tensor(rng.standard_normal((4, 3)).astype(np.float32), placement=one, sbp=B)
loss = net(x).square().mean(); opt.zero_grad(); loss.backward(); opt.step()
path = os.path.join(tempfile.gettempdir(), f"gp_k03_{world}.pt")
mf.save(net.state_dict(), path)
big = model(); big.to_global(everyone, lambda n, p: S(0) if n == "0.weight" else B)
big.load_state_dict(mf.load(path))
xb = mf.tensor(rng.standard_normal((4, 3)).astype(np.float32), placement=everyone, sbp=S(0))
with mf.no_grad():
    y = big(xb)
print("RESULT", rank, json.dumps({"loss": loss.item(), "y": y.tolist()}))
