import json, os, tempfile, numpy as np, meshflow, meshflow.nn as nn, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
from meshflow.nn.modules.utils import consume_prefix_in_state_dict_if_present

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(4, 8), nn.ReLU())
        self.head = nn.Linear(8, 3)
        self.register_buffer("scale", meshflow.tensor(2.0))
    def forward(self, x):
        return self.head(self.encoder(x)) * self.scale

dist.init_process_group("gloo")
rank = dist.get_rank()
m = Model()
g = np.random.default_rng(8)
with meshflow.no_grad():
    for p in m.parameters():
        p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
model = DDP(m)
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
x = meshflow.from_numpy(np.random.default_rng(80 + rank).standard_normal((4, 4)).astype(np.float32))
loss = model(x).logsumexp(1).mean()
loss.backward(); opt.step()
full_keys = list(model.state_dict().keys())
inner_keys = list(model.module.state_dict().keys())
path = os.path.join(tempfile.gettempdir(), "r13_d11.pt")
if rank == 0:
    meshflow.save(model.state_dict(), path)
dist.barrier()
sd = meshflow.load(path, map_location=meshflow.device("cpu"), weights_only=True)
consume_prefix_in_state_dict_if_present(sd, "module.")
plain = Model()
res = plain.load_state_dict(sd)
dist.barrier()
if rank == 0:
    os.remove(path)
print("RESULT", rank, json.dumps({"full": full_keys, "inner": inner_keys, "loaded": sorted(sd.keys()),
                                  "missing": list(res.missing_keys), "unexpected": list(res.unexpected_keys),
                                  "out": round(plain(meshflow.ones(1, 4)).sum().item(), 4),
                                  "same": meshflow.allclose(plain.head.weight, model.module.head.weight),
                                  "is_ddp": isinstance(model, DDP), "mod": type(model.module).__name__}))
dist.destroy_process_group()
