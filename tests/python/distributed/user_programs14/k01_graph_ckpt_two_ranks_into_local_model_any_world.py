import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
# k00's checkpoint, saved on 2 ranks by a graph (a row-split embedding, a column-split head,
# SGD's momentum split as they are), read into a plain local model, optimizer and scheduler in
# every process; each continues alone, eagerly, as k00 did on 2 ranks.
CKPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "k00_saved_on_two_ranks")

class Bag(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 6)
        self.norm = nn.LayerNorm(6)
        self.bn = nn.BatchNorm1d(6)
        self.head = nn.Linear(6, 3)
    def forward(self, ids):
        return self.head(F.relu(self.bn(self.norm(self.emb(ids).mean(1)))))

net = Bag()
opt = mf.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-3)
sched = mf.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
ck = mf.load(CKPT, map_location="cpu")
net.load_state_dict(ck["model"]); opt.load_state_dict(ck["optim"]); sched.load_state_dict(ck["sched"])
rng = np.random.default_rng(150)
data = [(rng.integers(0, 10, (6, 3)), rng.integers(0, 3, 6)) for _ in range(4)]
cont = []
for ids, y in data[ck["step"]:]:
    loss = F.cross_entropy(net(mf.tensor(ids)), mf.tensor(y))
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    cont.append(loss.item())
net.eval()
with mf.no_grad():
    ev = net(mf.tensor(data[0][0])).sum().item()
print("RESULT", rank, json.dumps({"cont": cont, "ev": ev, "lr": sched.get_last_lr()[0],
                                  "local": all(v.is_local for v in ck["model"].values()),
                                  "nbt": int(net.bn.num_batches_tracked.item())}))
