import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
def init_(net, seed):
    g = np.random.default_rng(seed)
    with mf.no_grad():
        for p in net.parameters():
            p.copy_(mf.from_numpy((g.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
# each rank routes its tokens to the rank that owns the expert; uneven split sizes
tokens = mf.arange(5, dtype=mf.float32).unsqueeze(1).repeat(1, 2) + 100 * rank
expert = mf.tensor([0, 1, 1, 0, 1]) if rank == 0 else mf.tensor([1, 1, 0, 1, 1])
order = mf.argsort(expert, stable=True)
send = tokens[order]
send_counts = mf.bincount(expert, minlength=world)
recv_counts = mf.empty_like(send_counts)
dist.all_to_all_single(recv_counts, send_counts)
recv = mf.empty(int(recv_counts.sum()), 2)
dist.all_to_all_single(recv, send, output_split_sizes=recv_counts.tolist(), input_split_sizes=send_counts.tolist())
processed = recv * (rank + 1)
back = mf.empty_like(send)
dist.all_to_all_single(back, processed, output_split_sizes=send_counts.tolist(), input_split_sizes=recv_counts.tolist())
out = mf.empty_like(back); out[order] = back
print("RESULT", rank, json.dumps({"recv_counts": recv_counts.tolist(), "recv": recv.tolist(), "out": out.tolist()}))
dist.destroy_process_group()
