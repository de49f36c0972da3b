import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.nn.utils.rnn import pack_padded_sequence, pad_sequence

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(15, 6, padding_idx=0)
        self.gru = nn.GRU(6, 10, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(20, 2)
    def forward(self, x, lengths):
        packed = pack_padded_sequence(self.emb(x), lengths, batch_first=True, enforce_sorted=False)
        _, h = self.gru(packed)
        return self.fc(meshflow.cat([h[0], h[1]], dim=1))

dist.init_process_group("gloo")
rank = dist.get_rank()
net = Model()
g = np.random.default_rng(17)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.2)
rng = np.random.default_rng(170 + rank)
losses = []
for _ in range(3):
    lengths = rng.integers(2, 7, 4)
    seqs = [meshflow.from_numpy(rng.integers(1, 15, n)) for n in lengths]
    x = pad_sequence(seqs, batch_first=True)
    y = meshflow.from_numpy(rng.integers(0, 2, 4))
    loss = F.cross_entropy(model(x, meshflow.from_numpy(lengths)), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 4))
print("RESULT", rank, json.dumps({"losses": losses, "w": round(net.gru.weight_hh_l0_reverse.sum().item(), 4),
                                  "pad_row": net.emb.weight[0].abs().sum().item()}))
dist.destroy_process_group()
