import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

text = "hello world, distributed training of a tiny char rnn. " * 3
chars = sorted(set(text)); stoi = {c: i for i, c in enumerate(chars)}
data = meshflow.tensor([stoi[c] for c in text])

class CharRNN(nn.Module):
    def __init__(self, v, h):
        super().__init__()
        self.emb = nn.Embedding(v, h)
        self.rnn = nn.RNN(h, h, nonlinearity="tanh", batch_first=True)
        self.fc = nn.Linear(h, v)
    def forward(self, x, h):
        o, h = self.rnn(self.emb(x), h)
        return self.fc(o), h

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
net = CharRNN(len(chars), 12)
g = np.random.default_rng(35)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.2).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.Adam(model.parameters(), lr=0.01)
shard = data[rank * len(data) // world:(rank + 1) * len(data) // world]
h = meshflow.zeros(1, 1, 12)
losses = []
for i in range(0, 40, 8):
    x = shard[i:i + 8].unsqueeze(0); y = shard[i + 1:i + 9].unsqueeze(0)
    logits, h = model(x, h)
    h = h.detach()
    loss = F.cross_entropy(logits.view(-1, len(chars)), y.view(-1))
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 4))
with meshflow.no_grad():
    idx, hh, s = meshflow.tensor([[stoi["h"]]]), meshflow.zeros(1, 1, 12), "h"
    for _ in range(6):
        lo, hh = net(idx, hh)
        idx = lo[:, -1].argmax(-1, keepdim=True)
        s += chars[idx.item()]
print("RESULT", rank, json.dumps({"losses": losses, "sample": s, "vocab": len(chars)}))
dist.destroy_process_group()
