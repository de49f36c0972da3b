import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
model = nn.Linear(3, 4)
g = np.random.default_rng(21)
with meshflow.no_grad():
    model.weight.copy_(meshflow.from_numpy(g.standard_normal((4, 3)).astype(np.float32))); model.bias.zero_()
rng = np.random.default_rng(210 + rank)
x = meshflow.from_numpy(rng.standard_normal((6, 3)).astype(np.float32)); y = meshflow.from_numpy(rng.integers(0, 4, 6))
with meshflow.no_grad():
    preds = model(x).argmax(-1)
all_preds = [meshflow.empty_like(preds) for _ in range(world)]
all_labels = [meshflow.empty_like(y) for _ in range(world)]
dist.all_gather(all_preds, preds)
dist.all_gather(all_labels, y)
P, Y = meshflow.cat(all_preds), meshflow.cat(all_labels)
acc = (P == Y).float().mean().item()
conf = meshflow.zeros(4, 4, dtype=meshflow.long)
for p, t in zip(P.tolist(), Y.tolist()):
    conf[t, p] += 1
probs = meshflow.softmax(model(x).detach(), -1)
out = meshflow.empty(world * 6, 4)
dist.all_gather_into_tensor(out, probs)
print("RESULT", rank, json.dumps({"acc": round(acc, 4), "conf": conf.tolist(), "preds": P.tolist(),
                                  "probs_sum": round(out.sum().item(), 4), "max": round(out.max().item(), 4)}))
dist.destroy_process_group()
