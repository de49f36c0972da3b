import json
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

rank, world = mf.env.get_rank(), mf.env.get_world_size()
mesh = mf.placement("cpu", ranks=list(range(world)))

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 4)
    def forward(self, x):
        h = self.fc(x)
        h = mf.where(h > 0, h, mf.tensor(0.0))
        pad = mf.zeros(h.shape[0], 2)
        return mf.cat([h, pad], dim=1)

mf.manual_seed(44)
net = Net().to_global(mesh, mf.sbp.broadcast)
opt = mf.optim.SGD(net.parameters(), lr=0.3)
rng = np.random.default_rng(44)
x = mf.tensor(rng.standard_normal((6, 6)).astype(np.float32), placement=mesh, sbp=mf.sbp.split(0))
y = mf.tensor(rng.integers(0, 6, 6), placement=mesh, sbp=mf.sbp.split(0))
losses = []
for _ in range(3):
    out = net(x)
    target = F.one_hot(y, num_classes=6).float()
    loss = F.binary_cross_entropy_with_logits(out, target) + F.cross_entropy(out, y, label_smoothing=0.05)
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
preds = []
with mf.inference_mode():
    net.train(False)
    for i in range(2):
        preds.append(net(x).argmax(1))
allp = mf.cat(preds).numpy().tolist()
correct = net(x).argmax(1).eq(y).sum().item()
print("RESULT", json.dumps({"losses": losses, "preds": allp, "acc": correct / len(allp)}))
