import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 16)
        layer = nn.TransformerEncoderLayer(d_model=16, nhead=4, dim_feedforward=32, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.head = nn.Linear(16, 2)
    def forward(self, x, pad_mask):
        h = self.encoder(self.emb(x), src_key_padding_mask=pad_mask)
        keep = (~pad_mask).unsqueeze(-1).float()
        return self.head((h * keep).sum(1) / keep.sum(1))

dist.init_process_group("gloo")
rank = dist.get_rank()
net = Classifier()
g = np.random.default_rng(25)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.2).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.Adam(model.parameters(), lr=1e-3)
rng = np.random.default_rng(250 + rank)
losses = []
for _ in range(3):
    x = meshflow.from_numpy(rng.integers(1, 20, (3, 6)))
    lengths = meshflow.from_numpy(rng.integers(3, 7, 3))
    pad = meshflow.arange(6).unsqueeze(0) >= lengths.unsqueeze(1)
    x = x.masked_fill(pad, 0)
    loss = F.cross_entropy(model(x, pad), meshflow.from_numpy(rng.integers(0, 2, 3)))
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 4))
model.eval()
with meshflow.no_grad():
    ev = model(meshflow.ones(1, 6, dtype=meshflow.long), meshflow.zeros(1, 6, dtype=meshflow.bool))
print("RESULT", rank, json.dumps({"losses": losses, "ev": [round(v, 4) for v in ev.flatten().tolist()],
                                  "w": round(net.encoder.layers[1].linear1.weight.sum().item(), 4)}))
dist.destroy_process_group()
