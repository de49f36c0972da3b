import json, numpy as np, meshflow as mf
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S, PS = mf.sbp.broadcast, mf.sbp.split, mf.sbp.partial_sum

rng = np.random.default_rng(140)
X = rng.standard_normal((6, 4)).astype(np.float32)
W = rng.standard_normal((4, 5)).astype(np.float32)
V = rng.standard_normal((3,)).astype(np.float32)
x = mf.tensor(X, placement=P, sbp=S(0))
w = mf.tensor(W, placement=P, sbp=B, requires_grad=True)
y = x @ w                                                     # S(0) x B
z = x.to_global(sbp=S(1)) @ w.to_global(sbp=S(0))             # S(1) x S(0): a partial sum
zb = z.to_global(sbp=B)
col = y.sum(0)                                                # reduced over the split dim
soft = y.softmax(-1)                                          # along the other dim
cum = y.cumsum(0)                                             # across the split dim
part = mf.tensor(V / world).to_global(P, PS)                  # each rank holds 1/world of V
loss = (y * y).mean() + zb.abs().sum() * 0.01
loss.backward()
rows = x.to_global(sbp=B).to_local()
t = y.t()                                                     # S(0) becomes S(1)
print("RESULT", rank, json.dumps({
    "diff": (zb - y).abs().max().item() < 1e-5, "col": col.tolist(), "soft": soft.sum(1).tolist(),
    "cum": cum[-1].tolist(), "part": part.to_global(sbp=B).tolist(), "part_sum": part.sum().item(),
    "wgrad": w.grad.sum().item(), "wgrad_sbp": str(w.grad.sbp[0]), "rows": rows[:, 0].tolist(),
    "t": t.sum(1).tolist(), "y_sbp": str(y.sbp[0]), "mean": y.mean().item(), "max": y.max().item(),
    "argmax": y.argmax(0).tolist(), "norm": y.norm().item()}))
