import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

class AE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 4, 3, stride=2, padding=1), nn.ReLU(), nn.Conv2d(4, 8, 3, stride=2, padding=1), nn.ReLU())
        self.dec = nn.Sequential(nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1), nn.ReLU(),
                                 nn.ConvTranspose2d(4, 1, 3, stride=2, padding=1, output_padding=1), nn.Sigmoid())
    def forward(self, x):
        return self.dec(self.enc(x))

dist.init_process_group("gloo")
rank = dist.get_rank()
net = AE()
g = np.random.default_rng(44)
with meshflow.no_grad():
    for p in net.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = DDP(net)
opt = meshflow.optim.Adam(model.parameters(), lr=5e-3)
rng = np.random.default_rng(440 + rank)
losses = []
for _ in range(3):
    x = meshflow.from_numpy((rng.random((2, 1, 8, 8)) > 0.5).astype(np.float32))
    recon = model(x)
    loss = F.binary_cross_entropy(recon, x)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(round(loss.item(), 4))
print("RESULT", rank, json.dumps({"losses": losses, "shape": list(recon.shape), "dec": round(net.dec[0].weight.sum().item(), 4)}))
dist.destroy_process_group()
