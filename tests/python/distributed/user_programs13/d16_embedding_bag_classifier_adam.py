import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

class TextClassifier(nn.Module):
    def __init__(self, vocab, dim, classes):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.fc = nn.Linear(dim, classes)
    def forward(self, text, offsets):
        return self.fc(self.embedding(text, offsets))

dist.init_process_group("gloo")
rank = dist.get_rank()
net = TextClassifier(50, 8, 4)
g = np.random.default_rng(16)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.Adam(model.parameters(), lr=0.05)
rng = np.random.default_rng(160 + rank)
losses = []
for _ in range(4):
    lens = rng.integers(1, 6, 3)
    text = meshflow.from_numpy(rng.integers(0, 50, int(lens.sum())))
    offsets = meshflow.tensor([0] + list(np.cumsum(lens)[:-1]))
    label = meshflow.from_numpy(rng.integers(0, 4, 3))
    loss = F.cross_entropy(model(text, offsets), label)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 4))
print("RESULT", rank, json.dumps({"losses": losses, "emb": round(net.embedding.weight.sum().item(), 4),
                                  "fc": round(net.fc.weight.abs().sum().item(), 4)}))
dist.destroy_process_group()
