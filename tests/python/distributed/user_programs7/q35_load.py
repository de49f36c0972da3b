import json, sys
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
opt = mf.optim.AdamW(model.parameters(), lr=1e-2)
ck = mf.load(sys.argv[1], map_location="cpu")
model.load_state_dict(ck["model"]); opt.load_state_dict(ck["optimizer"])
rng = np.random.default_rng(35)
X = rng.standard_normal((4, 6, 4)).astype(np.float32); Y = rng.integers(0, 2, (4, 6))
losses = []
for i in range(2, 4):
    loss = F.cross_entropy(model(mf.tensor(X[i])), mf.tensor(Y[i]))
    opt.zero_grad(); loss.backward(); opt.step()
    losses.append(loss.item())
print("RESULT", json.dumps(losses))
