import json, meshflow
import meshflow.distributed as dist
import meshflow.distributed.nn.functional as dnnf
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
x = meshflow.tensor([1.0, 2.0, 3.0]) * (rank + 1)
x.requires_grad_(True)
parts = dnnf.all_gather(x)
full = meshflow.stack(parts)
loss = (full * meshflow.arange(1.0, world + 1).unsqueeze(1)).sum() * (rank + 1)
loss.backward()
y = meshflow.tensor([float(rank + 1), 2.0], requires_grad=True)
z = dnnf.all_reduce(y * y)
z.sum().backward()
print("RESULT", rank, json.dumps({"full": full.tolist(), "xgrad": x.grad.tolist(), "z": z.tolist(), "ygrad": y.grad.tolist()}))
dist.destroy_process_group()
