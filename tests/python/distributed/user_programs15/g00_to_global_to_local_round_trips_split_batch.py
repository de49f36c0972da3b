import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
data = np.arange(48, dtype=np.float32).reshape(8, 6) / 10.0
x = mf.tensor(data, placement=P, sbp=B)
rows = x.to_global(sbp=S(0))
cols = rows.to_global(sbp=S(1))
back = cols.to_global(sbp=B).to_local()
net = nn.Linear(6, 2)
with mf.no_grad():
    net.weight.copy_(mf.tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(2, 6)))
    net.bias.fill_(0.1)
net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.005)
losses = []
for step in range(3):
    xb = mf.tensor(data + step, placement=P, sbp=S(0))
    loss = F.mse_loss(net(xb), xb[:, :2])
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 5))
w_local = net.weight.to_local()
print("RESULT", rank, json.dumps({"back": back.sum().item(), "rows_sum": rows.sum().item(),
                                  "col_means": [round(v, 5) for v in cols.mean(0).tolist()],
                                  "losses": losses, "w": round(w_local.sum().item(), 5),
                                  "is_global": w_local.is_global, "shape": list(rows.shape)}))
