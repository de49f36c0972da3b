import json, meshflow as mf
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
x = mf.arange(6, dtype=mf.float32).reshape(2, 3) + 10 * rank
out = [mf.zeros(2, 3) for _ in range(world)]
dist.all_gather(out, x)
idx = mf.tensor([rank, rank * 5], dtype=mf.int64)
outi = [mf.empty_like(idx) for _ in range(world)]
dist.all_gather(outi, idx)
full = mf.cat(out, dim=0)
print("RESULT", rank, json.dumps({"full": full.tolist(), "ints": [t.tolist() for t in outi], "dtype": str(outi[1].dtype)}))
dist.destroy_process_group()
