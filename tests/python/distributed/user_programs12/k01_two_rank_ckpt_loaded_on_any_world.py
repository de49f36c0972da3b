import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
# Saved by k00 on 2 ranks (its weights split over [0, 1]); read here on 1, 2 or 4 ranks, into
# the same model split over this job's ranks, then training resumes.
CKPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "k00_saved_on_two_ranks")

def model():
    net = nn.Sequential(nn.Linear(6, 10), nn.GELU(), nn.LayerNorm(10), nn.Linear(10, 4))
    plan = {"0.weight": S(0), "0.bias": S(0), "3.weight": S(1)}
    net.to_global(P, lambda name, p: plan.get(name, B))
    return net
rng = np.random.default_rng(110)
data = [(rng.standard_normal((6, 6)).astype(np.float32), rng.integers(0, 4, 6)) for _ in range(4)]
net = model()
opt = mf.optim.AdamW(net.parameters(), lr=1e-2, weight_decay=0.05)
sched = mf.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
ck = mf.load(CKPT)
net.load_state_dict(ck["model"]); opt.load_state_dict(ck["optim"]); sched.load_state_dict(ck["sched"])
cont = []
for x, y in data[ck["epoch"]:]:
    loss = F.cross_entropy(net(mf.tensor(x, placement=P, sbp=S(0))), mf.tensor(y, placement=P, sbp=S(0)))
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    cont.append(loss.item())
plain = mf.load(CKPT, map_location="cpu")   # whole local tensors in every process
one = nn.Sequential(nn.Linear(6, 10), nn.GELU(), nn.LayerNorm(10), nn.Linear(10, 4))
one.load_state_dict(plain["model"])
print("RESULT", rank, json.dumps({"cont": cont, "w0": net[0].weight.sum().item(), "w3": net[3].weight.sum().item(),
                                  "lr": sched.get_last_lr()[0], "local_all": all(v.is_local for v in plain["model"].values()),
                                  "one_out": one(mf.tensor(data[0][0])).sum().item()}))
