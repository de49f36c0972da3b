import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

mf.manual_seed(103)
net = nn.Sequential(nn.Linear(6, 10), nn.ReLU(), nn.Linear(10, 3)); net.to_global(P, B)
opt = mf.optim.AdamW(net.parameters(), lr=1e-2)
rng = np.random.default_rng(103)
val_x = rng.standard_normal((5, 6)).astype(np.float32); val_y = rng.integers(0, 3, 5)
path = os.path.join(tempfile.gettempdir(), "g03_best.pt")
log, best = [], float("inf")
for it in range(4):
    x = mf.tensor(rng.standard_normal((8, 6)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 3, 8), placement=P, sbp=S(0))
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if rank == 0:
        print(f"step {it} loss {loss.item():.4f}")
        log.append(round(float(loss), 6))
        if loss < best:  # a comparison of the loss on rank 0 alone
            best = loss.item()
            mf.save(net.state_dict(), path)
        with mf.no_grad():  # evaluation of the broadcast model on a local batch, rank 0 alone
            acc = (net(mf.tensor(val_x)).argmax(1) == mf.tensor(val_y)).float().mean().item()
        log.append(acc)
if rank == 0:
    plain = nn.Sequential(nn.Linear(6, 10), nn.ReLU(), nn.Linear(10, 3))
    plain.load_state_dict(mf.load(path, map_location="cpu"))
    log.append(plain(mf.tensor(val_x)).sum().item())
    os.remove(path)
print("RESULT", rank, json.dumps({"log": log if rank == 0 else None, "best": best if rank == 0 else None,
                                  "w": net[2].weight.sum().item()}))
