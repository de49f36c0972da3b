import json, os
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))
model = nn.Sequential(nn.Conv2d(1, 3, 3), nn.BatchNorm2d(3), nn.ReLU(), nn.Flatten(), nn.Linear(3 * 4 * 4, 2))
model.load_state_dict(mf.load(os.path.join(os.environ.get("CKPT_DIR", "/tmp/rank2_ck"), "q52.pth"), map_location="cpu"))
model[0].requires_grad_(False)   # frozen backbone
model.to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.05, momentum=0.9)

class FT(nn.Graph):
    def __init__(self):
        super().__init__()
        self.model = model
        self.add_optimizer(opt)
    def build(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        return loss

ft = FT()
rng = np.random.default_rng(52)
losses = []
for _ in range(3):
    x = mf.tensor(rng.standard_normal((6, 1, 6, 6)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
    y = mf.tensor(rng.integers(0, 2, 6), placement=mesh, sbp=mf.sbp.split(0))
    losses.append(ft(x, y).item())
print("RESULT", json.dumps({"losses": losses, "conv": model[0].weight.sum().item(), "rv": model[1].running_var.tolist()}))
