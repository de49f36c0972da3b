import json, meshflow, meshflow.distributed as dist
from meshflow.distributed.tensor import distribute_tensor, Replicate, Shard

dist.init_process_group("gloo")
rank = dist.get_rank()
mesh = dist.device_mesh.init_device_mesh("cpu", (2,))
w = distribute_tensor(meshflow.arange(8, dtype=meshflow.float32).view(4, 2) / 4, mesh, [Replicate()]).requires_grad_()
s = distribute_tensor(meshflow.linspace(-1, 1, 8).view(4, 2), mesh, [Shard(0)]).requires_grad_()
out = (w * 3).tanh()                       # Replicate
local = out.to_local()
loss = (local ** 2).sum() + (s * w).to_local().sum()
loss.backward()
print("RESULT", rank, json.dumps({"loss": round(loss.item(), 4), "wg": [round(v, 4) for v in w.grad.full_tensor().flatten().tolist()],
                                  "sg": [round(v, 4) for v in s.grad.to_local().flatten().tolist()],
                                  "placements": [str(p) for p in out.placements], "sw": [str(p) for p in (s * w).placements]}))
dist.destroy_process_group()
