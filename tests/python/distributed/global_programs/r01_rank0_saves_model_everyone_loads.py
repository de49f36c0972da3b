import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(31)
net = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2)); net.to_global(P, B)
opt = mf.optim.Adam(net.parameters(), lr=1e-2)
rng = np.random.default_rng(31)
for _ in range(2):
    x = mf.tensor(rng.standard_normal((6, 4)).astype(np.float32), placement=P, sbp=S(0))
    loss = net(x).square().mean(); opt.zero_grad(); loss.backward(); opt.step()
path = os.path.join(tempfile.gettempdir(), f"gp_r01_{world}.pt")
if rank == 0:
    mf.save({"model": net.state_dict(), "opt": opt.state_dict(), "epoch": 2}, path)
if world > 1:
    mf.distributed.barrier()
ck = mf.load(path, map_location="cpu")
plain = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2))
plain.load_state_dict(ck["model"]); plain.eval()
out = plain(mf.ones(1, 4))
print("RESULT", rank, json.dumps({"epoch": ck["epoch"], "out": out.tolist(), "opt_keys": sorted(ck["opt"]),
                                  "rm": ck["model"]["1.running_mean"].tolist()}))
