import json, sys
import numpy as np
import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(8, 16)
        self.down = nn.Linear(16, 4)
        self.norm = nn.LayerNorm(4)
    def forward(self, x):
        return self.norm(self.down(F.silu(self.up(x))))

model = MLP()
sd = mf.load(sys.argv[1], map_location="cpu")
model.load_state_dict(sd)
rng = np.random.default_rng(9)
x = mf.tensor(rng.standard_normal((6, 8)).astype(np.float32))
print("RESULT", json.dumps({"out": model(x).sum().item(), "keys": sorted(sd.keys()), "shape": list(sd["up.weight"].shape)}))
