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
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
import tempfile
box = [tempfile.mkdtemp() if rank == 0 else None]
dist.broadcast_object_list(box, src=0)
class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(7, 4); self.proj = nn.Linear(4, 4); self.head = nn.Linear(4, 7, bias=False)
        self.head.weight = self.emb.weight
    def forward(self, ids):
        return self.head(F.relu(self.proj(self.emb(ids))))
net = LM(); init_(net, 53)
model = DDP(net)
opt = mf.optim.Adam(model.parameters(), lr=0.01)
rng = np.random.default_rng(5300 + rank)
for _ in range(2):
    ids = mf.from_numpy(rng.integers(0, 7, (2, 4)))
    loss = F.cross_entropy(model(ids)[:, :-1].reshape(-1, 7), ids[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step()
if rank == 0:
    mf.save(model.module.state_dict(), os.path.join(box[0], "lm.pt"))
dist.barrier()
again = LM(); again.load_state_dict(mf.load(os.path.join(box[0], "lm.pt"), map_location="cpu"))
print("RESULT", rank, json.dumps({"loss": loss.item(), "tied": again.head.weight is again.emb.weight, "n": len(list(net.parameters())), "w": sums(again)}))
dist.destroy_process_group()
