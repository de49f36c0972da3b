import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

def init(m, seed):
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in m.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.bn2 = nn.BatchNorm2d(16)
        self.fc = nn.Linear(16, 5)
    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.fc(x)

def main():
    dist.init_process_group(backend="gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    model = Net()
    init(model, 0)
    sync = nn.SyncBatchNorm.convert_sync_batchnorm(Net())  # what it makes (meshflow's CPU DDP refuses it)
    ddp = DDP(model)
    opt = meshflow.optim.SGD(ddp.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
    rng = np.random.default_rng(10 + rank)
    losses = []
    for step in range(4):
        x = meshflow.from_numpy(rng.standard_normal((4, 3, 8, 8)).astype(np.float32))
        y = meshflow.from_numpy(rng.integers(0, 5, 4))
        opt.zero_grad()
        loss = F.cross_entropy(ddp(x), y)
        loss.backward()
        opt.step()
        losses.append(round(loss.item(), 4))
    ddp.eval()
    with meshflow.no_grad():
        xe = meshflow.from_numpy(np.random.default_rng(99).standard_normal((3, 3, 8, 8)).astype(np.float32))
        ev = ddp(xe)
    print("RESULT", rank, json.dumps({
        "losses": losses, "eval": [round(v, 4) for v in ev.sum(1).tolist()],
        "rm": round(model.bn2.running_mean.sum().item(), 4), "rv": round(model.bn1.running_var.sum().item(), 4),
        "nbt": int(model.bn1.num_batches_tracked), "type": type(sync.bn1).__name__, "sync_keys": len(sync.state_dict()),
        "w": round(model.conv1.weight.sum().item(), 4)}))
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
