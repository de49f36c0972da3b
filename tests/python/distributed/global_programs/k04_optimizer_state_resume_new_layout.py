import json, os, tempfile, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

def model(plan):
    mf.manual_seed(44)
    n = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3)); n.to_global(P, plan)
    return n
rng = np.random.default_rng(44)
data = [(rng.standard_normal((6, 4)).astype(np.float32), rng.integers(0, 3, 6)) for _ in range(4)]
def step(net, opt, x, y):
    loss = F.cross_entropy(net(mf.tensor(x, placement=P, sbp=S(0))), mf.tensor(y, placement=P, sbp=S(0)))
    opt.zero_grad(); loss.backward(); opt.step(); return loss.item()
ref = model(B); ropt = mf.optim.AdamW(ref.parameters(), lr=1e-2)
ref_losses = [step(ref, ropt, *d) for d in data]
a = model(B); aopt = mf.optim.AdamW(a.parameters(), lr=1e-2)
losses = [step(a, aopt, *d) for d in data[:2]]
path = os.path.join(tempfile.gettempdir(), f"gp_k04_{world}.pt")
mf.save({"m": a.state_dict(), "o": aopt.state_dict()}, path)
ck = mf.load(path)
b = model(lambda n, p: S(0) if p.dim() == 2 else B); bopt = mf.optim.AdamW(b.parameters(), lr=1e-2)
b.load_state_dict(ck["m"]); bopt.load_state_dict(ck["o"])
losses += [step(b, bopt, *d) for d in data[2:]]
print("RESULT", rank, json.dumps({"losses": losses, "ref": ref_losses}))
