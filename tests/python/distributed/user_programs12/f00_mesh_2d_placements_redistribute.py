import json, meshflow
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import distribute_tensor, DTensor, Shard, Replicate, Partial
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
full = meshflow.arange(42, dtype=meshflow.float32).reshape(7, 6)
out = {"coord": mesh.get_coordinate(), "dp_rank": mesh["dp"].get_local_rank(), "tp_size": mesh["tp"].size()}
for name, pl in [("ss", [Shard(0), Shard(1)]), ("rs", [Replicate(), Shard(0)]), ("s0s0", [Shard(0), Shard(0)]),
                 ("sr", [Shard(1), Replicate()])]:
    d = distribute_tensor(full, mesh, pl)
    out[name] = {"local": list(d.to_local().shape), "sum": d.to_local().sum().item(), "full_ok": bool(meshflow.equal(d.full_tensor(), full))}
d = distribute_tensor(full, mesh, [Shard(0), Shard(1)])
m = d.redistribute(mesh, [Replicate(), Shard(1)])
out["moved"] = {"local": list(m.to_local().shape), "sum": m.to_local().sum().item()}
p = DTensor.from_local(meshflow.full((2, 2), float(rank)), mesh, [Replicate(), Partial()])
out["partial"] = p.full_tensor().tolist()
tp_only = distribute_tensor(full, mesh["tp"], [Shard(1)])
out["tp_only"] = {"local": list(tp_only.to_local().shape), "first": tp_only.to_local()[0].tolist()}
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
