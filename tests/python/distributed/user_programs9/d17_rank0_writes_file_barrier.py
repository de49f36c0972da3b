import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
import tempfile
path = os.path.join(tempfile.gettempdir(), "up9_d17_vocab.json")
if rank == 0:
    with open(path, "w") as f:
        json.dump({"tokens": ["a", "b", "c", "d"], "seed": 5}, f)
dist.barrier()
with open(path) as f:
    vocab = json.load(f)
net = nn.Embedding(len(vocab["tokens"]), 3); init_(net, vocab["seed"])
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=1.0)
ids = mf.tensor([[rank, 3 - rank]])
loss = model(ids).sum()
opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"n": len(vocab["tokens"]), "w": net.weight.tolist()}))
dist.barrier()
dist.destroy_process_group()
