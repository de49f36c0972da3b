import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

class Seq2Seq(nn.Module):
    def __init__(self, v=12, h=10):
        super().__init__()
        self.emb = nn.Embedding(v, h)
        self.enc = nn.LSTM(h, h, batch_first=True)
        self.cell = nn.LSTMCell(h, h)
        self.proj = nn.Linear(h, v)
    def forward(self, src, tgt):
        _, (h, c) = self.enc(self.emb(src))
        h, c = h[0], c[0]
        inp = tgt[:, 0]
        outs = []
        for t in range(1, tgt.size(1)):
            h, c = self.cell(self.emb(inp), (h, c))
            logits = self.proj(h)
            outs.append(logits)
            inp = tgt[:, t]
        return meshflow.stack(outs, 1)

dist.init_process_group("gloo")
rank = dist.get_rank()
net = Seq2Seq()
g = np.random.default_rng(37)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.Adam(model.parameters(), lr=0.02)
rng = np.random.default_rng(370 + rank)
losses = []
for _ in range(4):
    src = meshflow.from_numpy(rng.integers(2, 12, (3, 5)))
    tgt = meshflow.cat([meshflow.ones(3, 1, dtype=meshflow.long), src.flip(1)], 1)
    logits = model(src, tgt)
    loss = F.cross_entropy(logits.reshape(-1, 12), tgt[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 4))
print("RESULT", rank, json.dumps({"losses": losses, "cell": round(net.cell.weight_hh.sum().item(), 4)}))
dist.destroy_process_group()
