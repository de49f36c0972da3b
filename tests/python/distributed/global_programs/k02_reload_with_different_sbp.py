import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

def model():
    return nn.Sequential(nn.Linear(6, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
mf.manual_seed(42)
a = model(); a.to_global(P, lambda n, p: S(0) if n.startswith("0.") else B)
opt = mf.optim.SGD(a.parameters(), lr=0.1)
rng = np.random.default_rng(42)
for _ in range(2):
    x = mf.tensor(rng.standard_normal((4, 6)).astype(np.float32), placement=P, sbp=S(0))
    loss = a(x).square().mean(); opt.zero_grad(); loss.backward(); opt.step()
path = os.path.join(tempfile.gettempdir(), f"gp_k02_{world}.pt")
mf.save(a.state_dict(), path)
b = model(); b.to_global(P, lambda n, p: S(1) if n == "0.weight" else (S(0) if n == "3.weight" else B))
b.load_state_dict(mf.load(path))
x = mf.tensor(rng.standard_normal((4, 6)).astype(np.float32), placement=P, sbp=S(0))
a.eval(); b.eval()
with mf.no_grad():
    ya, yb = a(x), b(x)
print("RESULT", rank, json.dumps({"ya": ya.tolist(), "same": (ya - yb).abs().max().item() < 1e-6,
                                  "sbp": str(b[0].weight.sbp), "rm": b[1].running_mean.tolist()}))
