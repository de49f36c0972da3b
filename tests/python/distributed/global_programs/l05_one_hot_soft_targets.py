import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(5)
m = nn.Sequential(nn.Linear(6, 10), nn.ReLU(), nn.Linear(10, 4)); m.to_global(P, B)
opt = mf.optim.SGD(m.parameters(), lr=0.3, momentum=0.9)
rng = np.random.default_rng(5)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((6, 6)).astype(np.float32), placement=P, sbp=S(0))
    labels = mf.tensor(rng.integers(0, 4, 6))          # every rank's same labels, local
    target = F.one_hot(labels, 4).float() * 0.9 + 0.025  # smoothed
    logp = F.log_softmax(m(x), dim=1)
    loss = -(target * logp).sum(1).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses}))
