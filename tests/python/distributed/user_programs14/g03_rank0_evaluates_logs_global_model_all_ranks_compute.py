import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(143)
net = nn.Sequential(nn.Conv1d(2, 4, 3, padding=1), nn.BatchNorm1d(4), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 5, 3))
net.to_global(P, B)
opt = mf.optim.Adam(net.parameters(), lr=0.01)
rng = np.random.default_rng(143)
xv = mf.tensor(rng.standard_normal((6, 2, 5)).astype(np.float32), placement=P, sbp=S(0))
yv = mf.tensor(rng.integers(0, 3, 6), placement=P, sbp=S(0))
best, history = None, []
path = os.path.join(tempfile.gettempdir(), "r14_g03_best")
for epoch in range(3):
    net.train()
    x = mf.tensor(rng.standard_normal((8, 2, 5)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 3, 8), placement=P, sbp=S(0))
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    net.eval()
    with mf.no_grad():
        logits = net(xv)
        val = F.cross_entropy(logits, yv).item()             # every rank computes
        acc = (logits.argmax(1) == yv).float().mean().item()
    if best is None or val < best:
        best = val
        mf.save(net.state_dict(), path)                      # every rank takes part in the save
    if rank == 0:
        history.append([round(val, 6), round(acc, 6)])         # only rank 0 logs
fresh = nn.Sequential(nn.Conv1d(2, 4, 3, padding=1), nn.BatchNorm1d(4), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 5, 3))
fresh.to_global(P, B)
fresh.load_state_dict(mf.load(path))
fresh.eval()
with mf.no_grad():
    again = F.cross_entropy(fresh(xv), yv).item()
print("RESULT", rank, json.dumps({"history": history if rank == 0 else None, "best": best, "again": again,
                                  "rm": fresh[1].running_mean.tolist()}))
