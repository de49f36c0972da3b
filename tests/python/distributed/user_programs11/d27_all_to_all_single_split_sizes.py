import json, os, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
def sums(net):
    return [round(p.detach().sum().item(), 5) for p in net.parameters()]
send_counts = meshflow.tensor([r + rank + 1 for r in range(world)], dtype=meshflow.int64)
recv_counts = meshflow.empty(world, dtype=meshflow.int64)
dist.all_to_all_single(recv_counts, send_counts)
rows = int(send_counts.sum())
inp = meshflow.arange(rows * 2, dtype=meshflow.float32).reshape(rows, 2) + 100 * rank
out = meshflow.empty(int(recv_counts.sum()), 2)
dist.all_to_all_single(out, inp, output_split_sizes=recv_counts.tolist(), input_split_sizes=send_counts.tolist())
print("RESULT", rank, json.dumps({"recv_counts": recv_counts.tolist(), "out": out.tolist()}))
dist.destroy_process_group()
