import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

rng = np.random.default_rng(12)
a = mf.tensor(rng.standard_normal((6, 4)).astype(np.float32), placement=P, sbp=S(0), requires_grad=True)
w = mf.tensor(rng.standard_normal((4,)).astype(np.float32), requires_grad=True)   # local leaf
two = mf.tensor(2.0)
c = mf.tensor(rng.standard_normal((6, 1)).astype(np.float32))
r = {}
y = (a * two - w) / (c.abs() + 1)
y = mf.maximum(y, mf.zeros(4)) + mf.minimum(a, c)
y = y ** mf.tensor(2.0) + (a > c).float() + mf.atan2(a, mf.ones(6, 4))
loss = y.sum()
loss.backward()
r["loss"] = loss.item()
r["ga"] = a.grad.sum(0).tolist()
r["gw"] = w.grad.tolist()
r["gw_local"] = w.grad.is_local
r["eq"] = (a == a.clone()).all().item()
print("RESULT", rank, json.dumps(r))
