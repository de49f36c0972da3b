import json, sys
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
model = nn.Sequential(nn.Linear(8, 8), nn.GELU(), nn.Linear(8, 4))
opt = mf.optim.Adam(model.parameters(), lr=1e-2)
model.load_state_dict(mf.load(sys.argv[1], map_location="cpu"))
opt.load_state_dict(mf.load(sys.argv[1][:-3] + ".opt", map_location="cpu"))
rng = np.random.default_rng(51)
X = rng.standard_normal((4, 4, 8)).astype(np.float32); Y = rng.integers(0, 4, (4, 4))
losses = []
for i in range(2, 4):
    loss = F.cross_entropy(model(mf.tensor(X[i])), mf.tensor(Y[i]))
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", json.dumps(losses))
