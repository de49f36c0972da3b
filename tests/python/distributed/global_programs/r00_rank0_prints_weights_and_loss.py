import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(30)
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2)); net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1)
rng = np.random.default_rng(30)
log = []
for it in range(3):
    x = mf.tensor(rng.standard_normal((6, 4)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 2, 6), placement=P, sbp=S(0))
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if rank == 0:
        print(f"step {it} loss {loss.item():.4f}")
        print(net[0].weight)
        log.append(round(float(loss), 5))
        log.append(net[2].bias.numpy().round(5).tolist())
if rank == 0:
    print(loss)
print("RESULT", rank, json.dumps({"log": log if rank == 0 else None, "final": net[2].weight.sum().item()}))
