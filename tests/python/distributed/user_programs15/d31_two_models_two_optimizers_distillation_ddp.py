import json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()


def init(m, seed):
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in m.parameters():
            p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
    return m


teacher = init(nn.Sequential(nn.Linear(4, 10), nn.ReLU(), nn.Linear(10, 3)), 31).eval()
student = DDP(init(nn.Linear(4, 3), 32))
opt = meshflow.optim.Adam(student.parameters(), lr=0.03)
T = 2.0
rng = np.random.default_rng(310 + rank)
losses = []
for _ in range(4):
    x = meshflow.tensor(rng.standard_normal((6, 4)).astype(np.float32))
    with meshflow.no_grad():
        soft = F.softmax(teacher(x) / T, dim=-1)
    logp = F.log_softmax(student(x) / T, dim=-1)
    loss = F.kl_div(logp, soft, reduction="batchmean") * T * T
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
print("RESULT", rank, json.dumps({"losses": losses, "w": round(student.module.weight.sum().item(), 5)}))
dist.destroy_process_group()
