import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(9, 8); self.rnn = nn.GRU(8, 8, batch_first=True); self.out = nn.Linear(8, 9)
    def forward(self, x, h=None):
        y, h = self.rnn(self.emb(x), h); return self.out(y), h
    @meshflow.no_grad()
    def generate(self, start, n):
        x, h, seq = meshflow.tensor([[start]]), None, [start]
        for _ in range(n):
            logits, h = self(x, h); x = logits[:, -1].argmax(-1, keepdim=True); seq.append(int(x))
        return seq
net = LM()
g = np.random.default_rng(27)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.5).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.Adam(model.parameters(), lr=0.02)
rng = np.random.default_rng(2700 + rank)
losses = []
for _ in range(3):
    seq = meshflow.from_numpy(rng.integers(0, 9, (3, 6)))
    logits, _ = model(seq[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, 9), seq[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step(); losses.append(round(loss.item(), 5))
model.eval()
print("RESULT", rank, json.dumps({"losses": losses, "gen": model.module.generate(rank + 1, 5)}))
dist.destroy_process_group()
