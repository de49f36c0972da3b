import argparse, json, os, random, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

def setup(seed):
    random.seed(seed); np.random.seed(seed); meshflow.manual_seed(seed)
    meshflow.backends.cudnn.benchmark = False
    meshflow.backends.cudnn.deterministic = True
    meshflow.set_float32_matmul_precision("high")

parser = argparse.ArgumentParser()
parser.add_argument("--local-rank", "--local_rank", type=int, default=int(os.environ.get("LOCAL_RANK", 0)))
parser.add_argument("--epochs", type=int, default=2)
args = parser.parse_args([])
dist.init_process_group(backend="nccl" if meshflow.cuda.is_available() else "gloo")
rank, world = dist.get_rank(), dist.get_world_size()
if meshflow.cuda.is_available():
    meshflow.cuda.set_device(args.local_rank)
device = meshflow.device(f"cuda:{args.local_rank}" if meshflow.cuda.is_available() else "cpu")
setup(1234 + rank)
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device)
g = np.random.default_rng(49)
with meshflow.no_grad():
    for p in model.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
model = DDP(model, device_ids=[args.local_rank] if meshflow.cuda.is_available() else None)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(490 + rank)
losses = []
for epoch in range(args.epochs):
    x = meshflow.from_numpy(rng.standard_normal((4, 4)).astype(np.float32)).to(device, non_blocking=True)
    y = meshflow.from_numpy(rng.integers(0, 2, 4)).to(device)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(set_to_none=True); loss.backward(); opt.step()
    if meshflow.cuda.is_available():
        meshflow.cuda.synchronize()
    losses.append(round(loss.item(), 4))
print("RESULT", rank, json.dumps({"losses": losses, "device": str(device), "cuda": meshflow.cuda.is_available(),
                                  "count": meshflow.cuda.device_count(), "local_rank": args.local_rank,
                                  "deterministic": meshflow.backends.cudnn.deterministic, "prec": meshflow.get_float32_matmul_precision()}))
dist.destroy_process_group()
