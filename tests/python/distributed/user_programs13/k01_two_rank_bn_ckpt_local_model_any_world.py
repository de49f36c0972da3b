import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
# k00's checkpoint, saved on 2 ranks (split weights, Adam's state split too), read in torch's
# spelling into a plain local model and optimizer in every process; each continues alone
# on the whole batches, as k00 did on 2 ranks.
CKPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "k00_saved_on_two_ranks")
net = nn.Sequential(nn.Linear(5, 8, bias=False), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 3))
opt = mf.optim.Adam(net.parameters(), lr=0.02)
sched = mf.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
ck = mf.load(CKPT, map_location="cpu")
net.load_state_dict(ck["model"]); opt.load_state_dict(ck["optim"]); sched.load_state_dict(ck["sched"])
rng = np.random.default_rng(140)
data = [(rng.standard_normal((6, 5)).astype(np.float32), rng.integers(0, 3, 6)) for _ in range(4)]
cont = []
for x, y in data[ck["epoch"]:]:
    loss = F.cross_entropy(net(mf.tensor(x)), mf.tensor(y))
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    cont.append(loss.item())
net.eval()
with mf.no_grad():
    ev = net(mf.tensor(data[0][0])).sum().item()
print("RESULT", rank, json.dumps({"cont": cont, "ev": ev, "lr": sched.get_last_lr()[0],
                                  "local": all(v.is_local for v in ck["model"].values()),
                                  "nbt": int(net[1].num_batches_tracked.item())}))
