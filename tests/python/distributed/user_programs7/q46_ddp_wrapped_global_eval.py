import json, os
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.utils.data import DataLoader, TensorDataset
from meshflow.utils.data.distributed import DistributedSampler

def main():
    distributed = "WORLD_SIZE" in os.environ and int(os.environ["WORLD_SIZE"]) > 1
    if distributed:
        dist.init_process_group("gloo")
    rank = dist.get_rank() if distributed else 0
    world = dist.get_world_size() if distributed else 1
    mf.manual_seed(46)
    model = nn.Sequential(nn.Linear(4, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 3))
    if distributed:
        model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
        model = DDP(model)
    opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    rng = np.random.default_rng(46)
    ds = TensorDataset(mf.tensor(rng.standard_normal((16, 4)).astype(np.float32)), mf.tensor(rng.integers(0, 3, 16)))
    sampler = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=False) if distributed else None
    loader = DataLoader(ds, batch_size=8 // world, sampler=sampler, shuffle=False if distributed else False)
    losses = []
    for epoch in range(2):
        if sampler:
            sampler.set_epoch(epoch)
        model.train()
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad(); loss.backward(); opt.step()
            t = loss.detach().clone()
            if distributed:
                dist.all_reduce(t); t /= world
            losses.append(t.item())
    model.eval()
    correct = mf.tensor(0)
    total = mf.tensor(0)
    with mf.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum()
            total += y.numel()
    if distributed:
        dist.all_reduce(correct); dist.all_reduce(total)
    print("RESULT", json.dumps({"n": len(losses), "acc": correct.item() / total.item()}))
    if distributed:
        dist.destroy_process_group()

if __name__ == "__main__":
    main()
