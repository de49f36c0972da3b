import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
net = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 4)); init_(net, 50)
net.to_global(P, B)
net.eval()
rng = np.random.default_rng(50)
x = mf.tensor(rng.standard_normal((8, 3)).astype(np.float32), placement=P, sbp=S(0))
labels = mf.arange(8) % 4
with mf.no_grad():
    logits = net(x)
    top1 = (logits.argmax(-1) == labels).float().mean()
    top2 = (logits.topk(2, dim=-1).indices == labels[:, None]).any(-1).float().mean()
    conf = F.softmax(logits, -1).max(-1).values
print("RESULT", rank, json.dumps({"top1": top1.item(), "top2": top2.item(), "conf": conf.tolist()}))
