import json, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
rank, world = mf.env.get_rank(), mf.env.get_world_size()
P = mf.placement("cpu", ranks=list(range(world)))
B, S = mf.sbp.broadcast, mf.sbp.split

class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(5, 7, num_layers=2, batch_first=True)
        self.fc = nn.Linear(7, 3)
    def forward(self, x):
        h0 = mf.zeros(2, x.size(0), 7)
        c0 = mf.zeros(2, x.size(0), 7)
        out, (h, c) = self.lstm(x, (h0, c0))
        return self.fc(out), h

mf.manual_seed(1)
m = Tagger(); m.to_global(P, B)
opt = mf.optim.SGD(m.parameters(), lr=0.2)
rng = np.random.default_rng(1)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((4, 5, 5)).astype(np.float32), placement=P, sbp=S(0))
    y = mf.tensor(rng.integers(0, 3, (4, 5)), placement=P, sbp=S(0))
    logits, h = m(x)
    loss = F.cross_entropy(logits.reshape(-1, 3), y.reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", rank, json.dumps({"losses": losses, "h": h.sum().item()}))
