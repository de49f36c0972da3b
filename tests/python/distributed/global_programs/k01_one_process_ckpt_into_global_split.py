import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
B, S = mf.sbp.broadcast, mf.sbp.split

class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(5, 6), nn.Linear(6, 2)
    def forward(self, x):
        return self.fc2(F.silu(self.fc1(x)))
mf.manual_seed(41)
pre = MLP()                               # a pretrained model, one process's
path = os.path.join(tempfile.gettempdir(), f"gp_k01_{rank}_{os.getpid()}.pt")
mf.save(pre.state_dict(), path)          # each process its own file
P = mf.placement("cpu", ranks=list(range(world)))
net = MLP()
net.load_state_dict(mf.load(path, map_location="cpu"))
net.to_global(P, lambda n, p: {"fc1.weight": S(0), "fc1.bias": S(0), "fc2.weight": S(1)}.get(n, B))
opt = mf.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
rng = np.random.default_rng(41)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((4, 5)).astype(np.float32), placement=P, sbp=B)
    loss = net(x).square().mean(); opt.zero_grad(); loss.backward(); opt.step(); losses.append(loss.item())
os.remove(path)
print("RESULT", rank, json.dumps({"losses": losses, "sbp": str(net.fc1.weight.sbp) if world > 1 else "(S(0),)"}))
