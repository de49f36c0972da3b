import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
inputs = [meshflow.full((2,), float(10 * rank + r)) + meshflow.arange(2.0) for r in range(world)]
outputs = [meshflow.empty(2) for s in range(world)]
dist.all_to_all(outputs, inputs)
# tokens routed to experts: each rank holds a different count per destination
counts = meshflow.tensor([2, 1]) if rank == 0 else meshflow.tensor([0, 3])
recv_counts = meshflow.empty_like(counts)
dist.all_to_all_single(recv_counts, counts)
tokens = meshflow.arange(int(counts.sum()), dtype=meshflow.float32).unsqueeze(1).repeat(1, 3) + rank
recv = meshflow.empty(int(recv_counts.sum()), 3)
dist.all_to_all_single(recv, tokens, recv_counts.tolist(), counts.tolist())
recv = recv * 2
back = meshflow.empty_like(tokens)
dist.all_to_all_single(back, recv, counts.tolist(), recv_counts.tolist())
print("RESULT", rank, json.dumps({"outs": [o.tolist() for o in outputs], "rc": recv_counts.tolist(),
                                  "recv": recv.tolist(), "back": back.tolist()}))
dist.destroy_process_group()
