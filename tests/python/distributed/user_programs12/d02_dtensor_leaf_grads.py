import json, numpy as np, meshflow
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import DTensor, distribute_tensor, Shard, Replicate
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
rng = np.random.default_rng(3)
w = meshflow.from_numpy(rng.standard_normal((4, 6)).astype(np.float32))
x = meshflow.from_numpy(rng.standard_normal((6, 3)).astype(np.float32))
dw = distribute_tensor(w, mesh, [Shard(0)])
dw.requires_grad_(True)
dx = distribute_tensor(x, mesh, [Replicate()])
y = meshflow.tanh(dw @ dx)
loss = (y ** 2).sum()
loss.backward()
ref_w = w.clone().requires_grad_(True)
(meshflow.tanh(ref_w @ x) ** 2).sum().backward()
local = meshflow.from_numpy(rng.standard_normal((2, 3)).astype(np.float32)).requires_grad_(True)
d = DTensor.from_local(local * (rank + 1), mesh, [Shard(0)])
(d.sin() * 2.0).sum().backward()
print("RESULT", rank, json.dumps({
    "loss": round(loss.full_tensor().item(), 4), "grad_placements": str(dw.grad.placements),
    "grad_local_shape": list(dw.grad.to_local().shape),
    "grad_matches": bool(meshflow.allclose(dw.grad.full_tensor(), ref_w.grad, atol=1e-5)),
    "local_grad": [round(v, 5) for v in local.grad.flatten().tolist()],
    "is_leaf": dw.is_leaf, "is_dtensor": isinstance(dw.grad, DTensor),
}))
dist.destroy_process_group()
