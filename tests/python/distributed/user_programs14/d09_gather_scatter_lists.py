import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mine = meshflow.tensor([rank * 2.0, rank * 2.0 + 1])
gl = [meshflow.zeros(2) for _ in range(world)] if rank == 0 else None
dist.gather(mine, gather_list=gl, dst=0)
gl1 = [meshflow.zeros(2) for _ in range(world)] if rank == 1 else None
dist.gather(mine * 10, gather_list=gl1, dst=1)
out = meshflow.zeros(3, dtype=meshflow.int64)
sl = [meshflow.arange(3) + 100 * i for i in range(world)] if rank == 0 else None
dist.scatter(out, scatter_list=sl, src=0)
out2 = meshflow.zeros(2, 2)
sl2 = [meshflow.full((2, 2), i + 0.5) for i in range(world)] if rank == 1 else None
dist.scatter(out2, sl2, src=1)
print("RESULT", rank, json.dumps({"g0": [g.tolist() for g in gl] if gl else None,
                                  "g1": [g.tolist() for g in gl1] if gl1 else None,
                                  "out": out.tolist(), "out2": out2.tolist()}))
dist.destroy_process_group()
