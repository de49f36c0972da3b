import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(37)
net = nn.Sequential(nn.Linear(4, 5, bias=False), nn.BatchNorm1d(5), nn.ReLU(), nn.Linear(5, 3)); net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
class Train(nn.Graph):
    def __init__(self):
        super().__init__(); self.net = net; self.add_optimizer(opt)
    def build(self, x, y):
        out = self.net(x); loss = F.cross_entropy(out, y); loss.backward()
        return loss, (out.argmax(1) == y).sum()
train = Train()
rng = np.random.default_rng(37)
log = []
for it in range(3):
    x = mf.tensor(rng.standard_normal((8, 4)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 3, 8), placement=P, sbp=S(0))
    loss, correct = train(x, y)
    if rank == 0:
        log.append([round(loss.item(), 6), int(correct.item())])
if rank == 0:
    sd = net.state_dict()
    print({k: v.shape for k, v in sd.items()})
    log.append(int(sd["1.num_batches_tracked"].item()))
    log.append(sd["1.running_var"].numpy().round(5).tolist())
print("RESULT", rank, json.dumps({"log": log if rank == 0 else None}))
