import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
import io
def build():
    net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)); init_(net, 43)
    opt = mf.optim.Adam(net.parameters(), lr=0.02)
    sched = mf.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    return net, DDP(net), opt, sched
rng = np.random.default_rng(4300 + rank)
batches = [(mf.from_numpy(rng.standard_normal((4, 3)).astype(np.float32)), mf.from_numpy(rng.standard_normal((4, 1)).astype(np.float32))) for _ in range(5)]
def train(model, opt, sched, part):
    for x, y in part:
        loss = F.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    return loss.item()
net, model, opt, sched = build()
straight = train(model, opt, sched, batches)
w_straight = sums(net)
net, model, opt, sched = build()
train(model, opt, sched, batches[:3])
buf = io.BytesIO()
mf.save({"model": net.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict()}, buf)
buf.seek(0)
ck = mf.load(buf, map_location="cpu")
net, model, opt, sched = build()
net.load_state_dict(ck["model"]); opt.load_state_dict(ck["opt"]); sched.load_state_dict(ck["sched"])
resumed = train(model, opt, sched, batches[3:])
print("RESULT", rank, json.dumps({"straight": straight, "resumed": resumed, "w": w_straight, "w2": sums(net), "lr": sched.get_last_lr()}))
dist.destroy_process_group()
