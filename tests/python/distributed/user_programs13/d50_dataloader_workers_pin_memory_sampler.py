import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.utils.data import Dataset, DataLoader
from meshflow.utils.data.distributed import DistributedSampler
from meshflow.nn.parallel import DistributedDataParallel as DDP

class Squares(Dataset):
    def __len__(self):
        return 14
    def __getitem__(self, i):
        x = np.array([i / 14.0, (i % 3) / 3.0], dtype=np.float32)
        return x, np.float32(x[0] ** 2 + x[1])

if __name__ == "__main__":
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    ds = Squares()
    sampler = DistributedSampler(ds, shuffle=True, seed=3)
    loader = DataLoader(ds, batch_size=3, sampler=sampler, num_workers=2, pin_memory=True, persistent_workers=True)
    net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
    g = np.random.default_rng(50)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
    model = DDP(net)
    opt = meshflow.optim.Adam(model.parameters(), lr=0.01)
    log = []
    for epoch in range(2):
        sampler.set_epoch(epoch)
        for x, y in loader:
            loss = F.mse_loss(model(x).squeeze(1), y)
            opt.zero_grad(); loss.backward(); opt.step()
            log.append(round(loss.item(), 4))
    print("RESULT", rank, json.dumps({"log": log, "dtypes": [str(x.dtype), str(y.dtype)], "shape": list(x.shape)}))
    dist.destroy_process_group()
