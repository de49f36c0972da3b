import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.distributed as dist
from meshflow.utils.data import TensorDataset, DataLoader
from meshflow.utils.data.distributed import DistributedSampler
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
X = meshflow.from_numpy(np.random.default_rng(0).standard_normal((23, 4)).astype(np.float32))
Y = (X.sum(1, keepdim=True) > 0).float()
ds = TensorDataset(X, Y)
sampler = DistributedSampler(ds, shuffle=True, seed=42, drop_last=True)
loader = DataLoader(ds, batch_size=4, sampler=sampler, drop_last=True)
model = nn.Linear(4, 1)
with meshflow.no_grad():
    model.weight.copy_(meshflow.tensor([[0.1, -0.2, 0.3, 0.05]])); model.bias.zero_()
ddp = DDP(model)
opt = meshflow.optim.SGD(ddp.parameters(), lr=0.3)
lossf = nn.BCEWithLogitsLoss()
out = {"len_sampler": len(sampler), "len_loader": len(loader), "epochs": []}
for epoch in range(3):
    sampler.set_epoch(epoch)
    idx = list(iter(sampler))
    tot = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = lossf(ddp(xb), yb)
        loss.backward(); opt.step()
        tot += loss.item()
    out["epochs"].append({"first": idx[:3], "n": len(idx), "loss": round(tot, 4)})
out["w"] = [round(v, 4) for v in model.weight.flatten().tolist()]
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
