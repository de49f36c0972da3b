import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

def model():
    mf.manual_seed(110)
    net = nn.Sequential(nn.Linear(6, 10), nn.GELU(), nn.LayerNorm(10), nn.Linear(10, 4))
    plan = {"0.weight": S(0), "0.bias": S(0), "3.weight": S(1)}   # column then row split
    net.to_global(P, lambda name, p: plan.get(name, B))
    return net
rng = np.random.default_rng(110)
data = [(rng.standard_normal((6, 6)).astype(np.float32), rng.integers(0, 4, 6)) for _ in range(4)]
def step(net, opt, sched, x, y):
    loss = F.cross_entropy(net(mf.tensor(x, placement=P, sbp=S(0))), mf.tensor(y, placement=P, sbp=S(0)))
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    return loss.item()
net = model()
opt = mf.optim.AdamW(net.parameters(), lr=1e-2, weight_decay=0.05)
sched = mf.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
losses = [step(net, opt, sched, *d) for d in data[:2]]
where = os.environ.get("K00_CKPT_DIR") or os.path.join(tempfile.gettempdir(), f"k00_{world}")
mf.save({"model": net.state_dict(), "optim": opt.state_dict(), "sched": sched.state_dict(), "epoch": 2}, where)
cont = [step(net, opt, sched, *d) for d in data[2:]]
print("RESULT", rank, json.dumps({"losses": losses, "cont": cont, "w0": net[0].weight.sum().item(),
                                  "w3": net[3].weight.sum().item(), "lr": sched.get_last_lr()[0]}))
