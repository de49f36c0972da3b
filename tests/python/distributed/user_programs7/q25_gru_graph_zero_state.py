import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))

class Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(3, 8, batch_first=True)
        self.cell = nn.LSTMCell(8, 8)
        self.fc = nn.Linear(8, 1)
    def forward(self, x):
        h = mf.zeros(1, x.shape[0], 8)
        out, _ = self.rnn(x, h)
        hx = mf.zeros(x.shape[0], 8)
        cx = mf.zeros_like(hx)
        for t in range(out.shape[1]):
            hx, cx = self.cell(out[:, t], (hx, cx))
        return self.fc(hx)

mf.manual_seed(25)
model = Seq().to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.RMSprop(model.parameters(), lr=1e-2)

class Train(nn.Graph):
    def __init__(self):
        super().__init__()
        self.model = model
        self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.mse_loss(self.model(x), y)
        loss.backward()
        return loss

step = Train()
rng = np.random.default_rng(25)
losses = []
for _ in range(3):
    x = rng.standard_normal((4, 5, 3)).astype(np.float32)
    y = x.sum((1, 2))[:, None]
    losses.append(step(mf.tensor(x, placement=mesh, sbp=mf.sbp.split(0)), mf.tensor(y, placement=mesh, sbp=mf.sbp.split(0))).item())
print("RESULT", json.dumps(losses))
