import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
left, right = dist.new_group([0, 1]), dist.new_group([2, 3])
mine = left if rank < 2 else right
a = mf.arange(4, dtype=mf.float32) * (rank + 1)
work = dist.all_reduce(a, group=mine, async_op=True)
work.wait()
out = mf.zeros(2)
dist.reduce_scatter_tensor(out, mf.arange(4, dtype=mf.float32) + rank, group=mine)
x = mf.tensor([float(rank), 1.0, 2.0, 3.0])
y = mf.empty(4)
dist.all_to_all_single(y, x, group=mine)
print("RESULT", rank, json.dumps({"a": a.tolist(), "rs": out.tolist(), "a2a": y.tolist()}))
dist.destroy_process_group()
