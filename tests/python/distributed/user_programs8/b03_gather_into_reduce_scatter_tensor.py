import json, meshflow as mf
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
x = mf.tensor([1.0, 2.0, 3.0]) * (rank + 1)
out = mf.empty(world * 3)
dist.all_gather_into_tensor(out, x)
y = mf.arange(world * 2, dtype=mf.float32) + rank
rs = mf.empty(2)
dist.reduce_scatter_tensor(rs, y)
print("RESULT", rank, json.dumps({"ag": out.tolist(), "rs": rs.tolist()}))
dist.destroy_process_group()
