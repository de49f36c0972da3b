import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))

class Denoise(nn.Module):
    def __init__(self, d=10):
        super().__init__()
        self.enc = nn.Linear(d, d)
        self.dec = nn.Linear(d, d)

    def forward(self, x):
        noise_mask = mf.zeros_like(x)
        noise_mask[:, ::2] = 1.0
        h = F.relu(self.enc(x * (1 - noise_mask) + mf.ones_like(x) * 0.1 * noise_mask))
        T = h.shape[1]
        bias = mf.full((T, T), float("-inf")).triu(1)
        scores = h.unsqueeze(2) * h.unsqueeze(1) + bias
        w = scores.softmax(-1)
        return self.dec((w @ h.unsqueeze(-1)).squeeze(-1))

mf.manual_seed(3)
model = Denoise().to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = mf.tensor(np.random.default_rng(3).standard_normal((8, 10)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
losses = []
for _ in range(3):
    loss = F.mse_loss(model(x), x)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print("RESULT", json.dumps(losses))
