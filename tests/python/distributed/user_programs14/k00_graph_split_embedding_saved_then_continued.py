import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
# Trains 2 steps in a graph, saves (to $K00_CKPT: k00_saved_on_two_ranks was saved so), trains 2 more.

class Bag(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 6)
        self.norm = nn.LayerNorm(6)
        self.bn = nn.BatchNorm1d(6)
        self.head = nn.Linear(6, 3)
    def forward(self, ids):
        return self.head(F.relu(self.bn(self.norm(self.emb(ids).mean(1)))))

mf.manual_seed(150)
net = Bag()
plan = {"emb.weight": S(0), "head.weight": S(1)}
net.to_global(P, lambda name, p: plan.get(name, B))
opt = mf.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-3)
sched = mf.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
class Step(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt, lr_sch=sched)
    def build(self, ids, y):
        loss = F.cross_entropy(self.net(ids), y); loss.backward(); return loss
step = Step()
rng = np.random.default_rng(150)
data = [(rng.integers(0, 10, (6, 3)), rng.integers(0, 3, 6)) for _ in range(4)]
def run(ids, y):
    return step(mf.tensor(ids, placement=P, sbp=S(0)), mf.tensor(y, placement=P, sbp=S(0))).item()
first = [run(*d) for d in data[:2]]
path = os.environ.get("K00_CKPT") or os.path.join(tempfile.gettempdir(), f"r14_k00_{world}")
mf.save({"model": net.state_dict(), "optim": opt.state_dict(), "sched": sched.state_dict(), "step": 2}, path)
cont = [run(*d) for d in data[2:]]
net.eval()
with mf.no_grad():
    ev = net(mf.tensor(data[0][0], placement=P, sbp=B)).sum().item()
print("RESULT", rank, json.dumps({"first": first, "cont": cont, "ev": ev, "lr": sched.get_last_lr()[0]}))
