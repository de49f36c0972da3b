import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
payload = {"rank": rank, "emb": meshflow.arange(3, dtype=meshflow.float32) * (rank + 1), "ids": meshflow.tensor([rank, rank + 10])}
got = [None] * world
dist.all_gather_object(got, payload)
objs = [meshflow.eye(2) * 5 if rank == 0 else None]
dist.broadcast_object_list(objs, src=0)
embs = meshflow.stack([g["emb"] for g in got])
print("RESULT", rank, json.dumps({"embs": embs.tolist(), "ids": [g["ids"].tolist() for g in got],
                                  "types": [type(g["emb"]).__name__ for g in got], "b": objs[0].tolist(),
                                  "dtype": str(got[1]["ids"].dtype)}))
dist.destroy_process_group()
