import json, meshflow, meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
# rank 0 sends 1 row to itself and 3 to rank 1; rank 1 sends 2 to rank 0 and 1 to itself
splits = [[1, 3], [2, 1]]
in_splits = splits[rank]
out_splits = [splits[src][rank] for src in range(world)]
x = meshflow.arange(sum(in_splits) * 2, dtype=meshflow.float32).view(-1, 2) + 100 * rank
out = meshflow.empty(sum(out_splits), 2)
dist.all_to_all_single(out, x, output_split_sizes=out_splits, input_split_sizes=in_splits)
ids = meshflow.arange(4, dtype=meshflow.int64) + 10 * rank
ids_out = meshflow.empty(4, dtype=meshflow.int64)
dist.all_to_all_single(ids_out, ids)
print("RESULT", rank, json.dumps({"out": out.tolist(), "shape": list(out.shape), "ids": ids_out.tolist()}))
dist.destroy_process_group()
