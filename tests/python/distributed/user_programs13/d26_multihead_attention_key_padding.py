import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

class Pool(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(8, 2, batch_first=True)
        self.query = nn.Parameter(meshflow.zeros(1, 1, 8))
        self.out = nn.Linear(8, 1)
    def forward(self, x, mask):
        q = self.query.expand(x.size(0), -1, -1)
        o, w = self.attn(q, x, x, key_padding_mask=mask)
        return self.out(o.squeeze(1)).squeeze(-1), w

dist.init_process_group("gloo")
rank = dist.get_rank()
net = Pool()
g = np.random.default_rng(26)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
rng = np.random.default_rng(260 + rank)
losses = []
for _ in range(3):
    x = meshflow.from_numpy(rng.standard_normal((4, 5, 8)).astype(np.float32))
    mask = meshflow.from_numpy(rng.random((4, 5)) < 0.3); mask[:, 0] = False
    pred, w = model(x, mask)
    loss = F.mse_loss(pred, x.mean((1, 2)))
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 4))
print("RESULT", rank, json.dumps({"losses": losses, "w_masked": round(w.masked_select(mask.unsqueeze(1)).sum().item(), 4),
                                  "w_shape": list(w.shape), "q": round(net.query.sum().item(), 4)}))
dist.destroy_process_group()
