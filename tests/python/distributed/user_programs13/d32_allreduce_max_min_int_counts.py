import json, numpy as np, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
losses = meshflow.tensor([0.5 + rank, 2.0 - rank, 3.0 * rank])
mx, mn, sm = losses.clone(), losses.clone(), losses.clone()
dist.all_reduce(mx, op=dist.ReduceOp.MAX)
dist.all_reduce(mn, op=dist.ReduceOp.MIN)
dist.all_reduce(sm)
counts = meshflow.tensor([3 + rank, 7], dtype=meshflow.int64)
dist.all_reduce(counts)
prod = meshflow.tensor([2.0 + rank])
dist.all_reduce(prod, op=dist.ReduceOp.PRODUCT)
flag = meshflow.tensor([rank == 1], dtype=meshflow.int32)
dist.all_reduce(flag, op=dist.ReduceOp.MAX)
hist = meshflow.bincount(meshflow.tensor([rank, rank, 2]), minlength=4)
dist.all_reduce(hist)
print("RESULT", rank, json.dumps({"max": mx.tolist(), "min": mn.tolist(), "mean": (sm / world).tolist(),
                                  "counts": counts.tolist(), "dtype": str(counts.dtype), "prod": prod.tolist(),
                                  "any": bool(flag.item()), "hist": hist.tolist()}))
dist.destroy_process_group()
