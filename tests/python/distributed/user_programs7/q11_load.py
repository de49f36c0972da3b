import json, sys
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
opt = mf.optim.Adam(model.parameters(), lr=1e-2)
sched = mf.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
ck = mf.load(sys.argv[1], map_location="cpu")
model.load_state_dict(ck["model"]); opt.load_state_dict(ck["opt"]); sched.load_state_dict(ck["sched"])
rng = np.random.default_rng(11)
X = rng.standard_normal((4, 6, 4)).astype(np.float32); Y = rng.integers(0, 3, (4, 6))
losses = []
for i in range(ck["epoch"], 4):
    loss = F.cross_entropy(model(mf.tensor(X[i])), mf.tensor(Y[i]))
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    losses.append(loss.item())
print("RESULT", json.dumps({"losses": losses, "lr": sched.get_last_lr()}))
