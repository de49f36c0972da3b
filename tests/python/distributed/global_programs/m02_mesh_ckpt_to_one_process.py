import json, os, tempfile, math, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
M = mf.placement("cpu", ranks=[[0, 1], [2, 3]] if world == 4 else [[0]])   # data x tensor mesh
B, S = mf.sbp.broadcast, mf.sbp.split

def model():
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 4), nn.LayerNorm(4))
mf.manual_seed(52)
net = model()
net.to_global(M, lambda n, p: {"0.weight": (B, S(0)), "2.weight": (S(1), S(1))}.get(n, (B, B)))
opt = mf.optim.Adam(net.parameters(), lr=1e-2)
rng = np.random.default_rng(52)
for _ in range(2):
    x = mf.tensor(rng.standard_normal((4, 4)).astype(np.float32), placement=M, sbp=(S(0), B))
    loss = net(x).pow(2).mean(); opt.zero_grad(); loss.backward(); opt.step()
path = os.path.join(tempfile.gettempdir(), f"gp_m02_{world}.pt")
mf.save({"model": net.state_dict(), "opt": opt.state_dict()}, path)
ck = mf.load(path, map_location="cpu")
plain = model(); plain.load_state_dict(ck["model"])
with mf.no_grad():
    y = plain(mf.ones(1, 4))
print("RESULT", rank, json.dumps({"y": y.tolist(), "exp_avg": ck["opt"]["state"][0]["exp_avg"].sum().item(),
                                  "shape": list(ck["model"]["2.weight"].shape)}))
