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
class Enc(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 8, padding_idx=0); self.attn = nn.MultiheadAttention(8, 2, batch_first=True); self.out = nn.Linear(8, 3)
    def forward(self, ids):
        pad = ids == 0
        x = self.emb(ids)
        h, w = self.attn(x, x, x, key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).float()
        return self.out((h * keep).sum(1) / keep.sum(1)), w
net = Enc(); init_(net, 52)
model = DDP(net)
opt = mf.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(5200 + rank)
for _ in range(3):
    ids = mf.from_numpy(rng.integers(1, 10, (3, 5))); ids[0, 3:] = 0; ids[2, 4:] = 0
    y = mf.from_numpy(rng.integers(0, 3, 3))
    out, w = model(ids)
    loss = F.cross_entropy(out, y)
    opt.zero_grad(); loss.backward(); opt.step()
print("RESULT", rank, json.dumps({"loss": loss.item(), "attn_w": w[0, 0].tolist(), "w": sums(net)}))
dist.destroy_process_group()
