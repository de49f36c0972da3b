import os
import meshflow as mf, meshflow.nn as nn
mf.manual_seed(10)
model = nn.Sequential(nn.Linear(5, 7), nn.ReLU(), nn.Linear(7, 2))
opt = mf.optim.Adam(model.parameters(), lr=1e-2)
model(mf.ones(3, 5)).sum().backward(); opt.step()
mf.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": 1}, os.path.join(os.environ.get("CKPT_DIR", "/tmp/rank2_ck"), "q10.pt"))
