import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))

class Tagger(nn.Module):
    def __init__(self, vocab=20, emb=8, hidden=12, tags=5):
        super().__init__()
        self.hidden = hidden
        self.emb = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, num_layers=2, batch_first=True)
        self.gru = nn.GRU(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, tags)

    def forward(self, x):
        batch = x.size(0)
        h0 = mf.zeros(2, batch, self.hidden)
        c0 = mf.zeros(2, batch, self.hidden)
        e = self.emb(x)
        o, (hn, cn) = self.lstm(e, (h0, c0))
        g0 = mf.zeros(1, batch, self.hidden, device=x.device)
        o2, _ = self.gru(o, g0)
        return self.out(o2)

mf.manual_seed(2)
model = Tagger().to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.Adam(model.parameters(), lr=5e-3)
rng = np.random.default_rng(2)
X = rng.integers(0, 20, (6, 7))
Y = rng.integers(0, 5, (6, 7))
x = mf.tensor(X, placement=mesh, sbp=mf.sbp.split(0))
y = mf.tensor(Y, placement=mesh, sbp=mf.sbp.split(0))
losses = []
for _ in range(3):
    logits = model(x)
    loss = F.cross_entropy(logits.reshape(-1, 5), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print("RESULT", json.dumps(losses))
