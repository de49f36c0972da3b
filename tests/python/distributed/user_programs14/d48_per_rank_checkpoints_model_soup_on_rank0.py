import json, os, tempfile, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
g = np.random.default_rng(23)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
opt = meshflow.optim.SGD(net.parameters(), lr=0.1)
rng = np.random.default_rng(2300 + rank)
for _ in range(3):  # each rank fine-tunes alone on its own data
    x = meshflow.from_numpy(rng.standard_normal((5, 3)).astype(np.float32)); y = meshflow.from_numpy(rng.standard_normal((5, 1)).astype(np.float32))
    loss = F.mse_loss(net(x), y); opt.zero_grad(); loss.backward(); opt.step()
d = tempfile.gettempdir()
meshflow.save(net.state_dict(), os.path.join(d, f"r14_d48_rank{rank}.pt"))
dist.barrier()
out = {"mine": round(sum(v.sum().item() for v in net.state_dict().values()), 5)}
if rank == 0:
    sds = [meshflow.load(os.path.join(d, f"r14_d48_rank{r}.pt"), map_location="cpu") for r in range(world)]
    soup = {k: sum(sd[k] for sd in sds) / world for k in sds[0]}
    net.load_state_dict(soup)
    meshflow.save(soup, os.path.join(d, "r14_d48_soup.pt"))
    out["soup"] = round(sum(v.sum().item() for v in soup.values()), 5)
dist.barrier()
net.load_state_dict(meshflow.load(os.path.join(d, "r14_d48_soup.pt"), weights_only=True))
out["loaded"] = round(net[0].weight.sum().item(), 5)
dist.barrier()
if rank == 0:
    for f in [f"r14_d48_rank{r}.pt" for r in range(world)] + ["r14_d48_soup.pt"]:
        os.remove(os.path.join(d, f))
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
