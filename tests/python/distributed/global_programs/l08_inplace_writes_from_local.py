import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

rng = np.random.default_rng(8)
g = mf.tensor(rng.standard_normal((6, 5)).astype(np.float32), placement=P, sbp=S(0))
g[:, 0] = mf.arange(6).float()                 # a local column into a split tensor
g[mf.tensor([1, 4])] = mf.full((2, 5), -1.0)     # local rows at local indices
g.masked_fill_(mf.eye(6, 5).bool(), 9.0)
g[2:4] += mf.ones(2, 5)
h = mf.tensor(rng.standard_normal((6, 5)).astype(np.float32), placement=P, sbp=B)
h.copy_(mf.linspace(0, 1, 30).reshape(6, 5))
h.mul_(mf.tensor(2.0))
buf = mf.zeros(4, 5, placement=P, sbp=B)
buf.index_add_(0, mf.tensor([0, 0, 3]), mf.ones(3, 5))
print("RESULT", rank, json.dumps({"g": g.tolist(), "g_sbp": str(g.sbp), "h": h.sum().item(), "buf": buf.tolist()}))
