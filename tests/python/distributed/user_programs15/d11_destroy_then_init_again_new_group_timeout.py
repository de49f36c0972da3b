import json
from datetime import timedelta
import meshflow
import meshflow.distributed as dist

dist.init_process_group("gloo", timeout=timedelta(minutes=2))
rank = dist.get_rank()
a = meshflow.tensor([rank + 1.0])
dist.all_reduce(a)
dist.destroy_process_group()
first = a.item()
dist.init_process_group(backend="gloo", timeout=timedelta(seconds=90))
group = dist.new_group(ranks=[0, 1], timeout=timedelta(seconds=60))
b = meshflow.tensor([10.0 * (rank + 1)])
dist.all_reduce(b, op=dist.ReduceOp.MAX, group=group)
objs = [None, None]
dist.all_gather_object(objs, {"r": rank, "v": b.item()})
print("RESULT", rank, json.dumps({"first": first, "second": b.item(), "objs": objs,
                                  "rank_again": dist.get_rank(), "group_size": dist.get_world_size(group)}))
dist.destroy_process_group()
