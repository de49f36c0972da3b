import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
g = np.random.default_rng(25)
enc = nn.Sequential(nn.Embedding(12, 6), nn.Flatten(), nn.Linear(6 * 3, 8), nn.Tanh())
dec = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))
for m in (enc, dec):
    with meshflow.no_grad():
        for p in m.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
stage = enc if rank == 0 else dec
opt = meshflow.optim.Adam(stage.parameters(), lr=0.01)
sched = meshflow.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)
rng = np.random.default_rng(26)
log = []
for step in range(4):
    ids = meshflow.from_numpy(rng.integers(0, 12, (4, 3))); y = meshflow.from_numpy(rng.integers(0, 2, 4))
    opt.zero_grad()
    if rank == 0:
        h = stage(ids); dist.send(h.detach(), 1)
        gh = meshflow.empty_like(h); dist.recv(gh, 1); h.backward(gh)
    else:
        h = meshflow.empty(4, 8); dist.recv(h, 0); h.requires_grad_(True)
        loss = F.cross_entropy(stage(h), y); loss.backward(); dist.send(h.grad, 0)
    opt.step(); sched.step()
    l = loss.detach().reshape(1) if rank == 1 else meshflow.zeros(1)
    dist.broadcast(l, src=1)
    log.append([round(l.item(), 5), round(sched.get_last_lr()[0], 7)])
print("RESULT", rank, json.dumps({"log": log, "w": round(sum(p.sum().item() for p in stage.parameters()), 4)}))
dist.destroy_process_group()
