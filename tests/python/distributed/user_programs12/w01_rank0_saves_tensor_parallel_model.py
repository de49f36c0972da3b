import numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
net.to_global(P, lambda name, p: S(0) if name.startswith("0.") else B)
opt = mf.optim.Adam(net.parameters(), lr=0.1)
x = mf.ones(4, 4).to_global(P, B)
loss = net(x).square().mean(); opt.zero_grad(); loss.backward(); opt.step()
if rank == 0:  # wrong: the first layer is split, only a save on every rank has all of it
    mf.save({"model": net.state_dict(), "optim": opt.state_dict()}, "ckpt.pt")
print("saved", flush=True)
