import numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)); net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1)
rng = np.random.default_rng(0)
val_x = mf.tensor(rng.standard_normal((6, 4)).astype(np.float32), placement=P, sbp=S(0))
val_y = mf.tensor(rng.integers(0, 2, 6), placement=P, sbp=S(0))
for epoch in range(3):
    x = mf.tensor(rng.standard_normal((8, 4)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 2, 8), placement=P, sbp=S(0))
    loss = F.cross_entropy(net(x), y); opt.zero_grad(); loss.backward(); opt.step()
    if rank == 0:  # wrong: the validation batch is split, its loss needs every rank
        with mf.no_grad():
            val = F.cross_entropy(net(val_x), val_y, reduction="sum") / 6
        print(f"epoch {epoch} val {val.item():.4f}")
