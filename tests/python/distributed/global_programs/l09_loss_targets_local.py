import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(9)
m = nn.Linear(5, 3); m.to_global(P, B)
opt = mf.optim.SGD(m.parameters(), lr=0.2)
rng = np.random.default_rng(9)
cw = mf.tensor([1.0, 2.0, 0.5])          # class weights, local
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((8, 5)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 3, 8))  # local targets
    r = mf.tensor(rng.standard_normal((8, 3)).astype(np.float32))
    out = m(x)
    loss = (F.cross_entropy(out, y, weight=cw) + F.mse_loss(out, r) + F.smooth_l1_loss(out, r)
            + F.nll_loss(F.log_softmax(out, 1), y, ignore_index=2)
            + F.binary_cross_entropy_with_logits(out, (r > 0).float()))
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses}))
