import numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
net = nn.Linear(6, 4); net.to_global(P, S(0))    # a vocabulary-split style layer
opt = mf.optim.AdamW(net.parameters(), lr=0.1)
rng = np.random.default_rng(4)
for it in range(2):
    x = mf.tensor(rng.standard_normal((4, 6)).astype(np.float32), placement=P, sbp=B)
    loss = net(x).square().mean(); opt.zero_grad(); loss.backward(); opt.step()
    if rank == 0:  # wrong: the moments are split like the weight
        state = opt.state_dict()
        print(state["state"][0]["exp_avg"].sum().item())
