import os
import meshflow as mf, meshflow.nn as nn
mf.manual_seed(52)
model = nn.Sequential(nn.Conv2d(1, 3, 3), nn.BatchNorm2d(3), nn.ReLU(), nn.Flatten(), nn.Linear(3 * 4 * 4, 2))
model(mf.randn(4, 1, 6, 6))   # running stats move
mf.save(model.state_dict(), os.path.join(os.environ.get("CKPT_DIR", "/tmp/rank2_ck"), "q52.pth"))
