import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
cur, subgroups = dist.new_subgroups(group_size=2)
t = mf.tensor([2.0 ** rank])
dist.all_reduce(t, group=cur)
out = mf.zeros(4)
dist.all_gather_into_tensor(out, mf.tensor([rank * 1.0, rank + 0.5]), group=cur)
rs = mf.zeros(1)
dist.reduce_scatter_tensor(rs, mf.tensor([1.0 * rank, 10.0 * rank]), group=cur)
print("RESULT", rank, json.dumps({"n": len(subgroups), "t": t.item(), "out": out.tolist(), "rs": rs.item(), "r": dist.get_rank(cur)}))
dist.destroy_process_group()
