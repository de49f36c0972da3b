import numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split
net = nn.Linear(4, 3); net.to_global(P, B)
opt = mf.optim.SGD(net.parameters(), lr=0.1)
rng = np.random.default_rng(2)
for it in range(3):
    x = mf.tensor(rng.standard_normal((64, 4)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 3, 64), placement=P, sbp=S(0))
    logits = net(x)
    loss = F.cross_entropy(logits, y); opt.zero_grad(); loss.backward(); opt.step()
    if rank == 0:  # wrong: the predictions are split; comparing them needs every rank's rows
        correct = (logits.argmax(1) == y).tolist()
        print(f"it {it} acc {sum(correct) / len(correct):.3f}")
