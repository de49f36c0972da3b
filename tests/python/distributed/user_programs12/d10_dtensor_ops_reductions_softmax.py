import json, numpy as np, meshflow, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import distribute_tensor, Shard, Replicate
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
rng = np.random.default_rng(21)
a = meshflow.from_numpy(rng.standard_normal((6, 4)).astype(np.float32)); b = meshflow.from_numpy(rng.standard_normal((4, 5)).astype(np.float32))
da = distribute_tensor(a, mesh, [Shard(0)]); db = distribute_tensor(b, mesh, [Shard(0)])
dacol = distribute_tensor(a, mesh, [Shard(1)])
def r(t):
    return [round(v, 4) for v in t.full_tensor().flatten().tolist()]
res = {
    "relu_add": r(F.relu(da) + 1.5),
    "sum0": r(da.sum(0)), "sum1": r(da.sum(1)), "mean": r(da.mean()),
    "softmax1": r(F.softmax(da, dim=1)), "softmax0": r(F.softmax(da, dim=0)),
    "matmul_partial": r(dacol @ db), "matmul_placements": str((dacol @ db).placements),
    "t": r(da.t()), "view": r(da.view(12, 2)),
    "amax": r(da.amax(1)), "norm": r(da.norm()),
}
res["sum0_placements"] = str(da.sum(0).placements)
res["relu_placements"] = str((F.relu(da) + 1.5).placements)
print("RESULT", rank, json.dumps(res))
dist.destroy_process_group()
