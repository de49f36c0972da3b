import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from meshflow.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))

class Enc(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(15, 6, padding_idx=0)
        self.lstm = nn.LSTM(6, 8, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(16, 2)
    def forward(self, ids, lengths):
        packed = pack_padded_sequence(self.emb(ids), lengths, batch_first=True, enforce_sorted=False)
        out, (h, c) = self.lstm(packed)
        out, _ = pad_packed_sequence(out, batch_first=True)
        return self.fc(mf.cat([h[0], h[1]], dim=1))

mf.manual_seed(38)
model = Enc().to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.Adam(model.parameters(), lr=1e-2)
rng = np.random.default_rng(38)
lengths = [5, 3, 4, 2]
ids = np.zeros((4, 5), dtype=np.int64)
for i, n in enumerate(lengths):
    ids[i, :n] = rng.integers(1, 15, n)
x = mf.tensor(ids, placement=mesh, sbp=mf.sbp.split(0))
y = mf.tensor([0, 1, 1, 0], placement=mesh, sbp=mf.sbp.split(0))
losses = []
for _ in range(3):
    loss = F.cross_entropy(model(x, mf.tensor(lengths)), y)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", json.dumps(losses))
