import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
config = [{"lr": 0.01, "layers": [4, 8], "name": "exp1"}] if rank == 0 else [None]
dist.broadcast_object_list(config, src=0)
stats = {"rank": rank, "seen": 10 + rank, "loss": 1.5 / (rank + 1)}
everyone = [None for _ in range(world)]
dist.all_gather_object(everyone, stats)
total_seen = sum(s["seen"] for s in everyone)
msg = [f"hello from {rank}", rank * 2]
dist.broadcast_object_list(msg, src=1)
t = meshflow.tensor([float(total_seen)])
dist.all_reduce(t)
print("RESULT", rank, json.dumps({"config": config[0], "everyone": everyone, "total": total_seen, "msg": msg, "t": t.item()}))
dist.destroy_process_group()
