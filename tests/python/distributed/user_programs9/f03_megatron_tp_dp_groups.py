import json, os, numpy as np, meshflow as mf, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
tp_size = 2
tp_groups = [dist.new_group(list(range(i, i + tp_size))) for i in range(0, world, tp_size)]
dp_groups = [dist.new_group(list(range(j, world, tp_size))) for j in range(tp_size)]
tp = tp_groups[rank // tp_size]; dp = dp_groups[rank % tp_size]
tp_rank, dp_rank = dist.get_rank(tp), dist.get_rank(dp)
# row-parallel linear: each tp rank holds half of the input features
g = np.random.default_rng(3)
W = g.standard_normal((2, 4)).astype(np.float32)
w = mf.from_numpy(W[:, tp_rank * 2:(tp_rank + 1) * 2].copy()).requires_grad_()
X = np.random.default_rng(30 + dp_rank).standard_normal((3, 4)).astype(np.float32)
x = mf.from_numpy(X[:, tp_rank * 2:(tp_rank + 1) * 2].copy())
partial = x @ w.t()
out = partial.detach().clone()
dist.all_reduce(out, group=tp)
loss = out.pow(2).sum()
grad_out = 2 * out
partial.backward(grad_out)
dist.all_reduce(w.grad, group=dp)
w.grad /= dist.get_world_size(dp)
loss_t = mf.tensor([loss.item()])
dist.all_reduce(loss_t, group=dp)
print("RESULT", rank, json.dumps({"tp": [tp_rank, dist.get_process_group_ranks(tp)], "dp": [dp_rank, dist.get_process_group_ranks(dp)], "loss": loss_t.item(), "g": w.grad.tolist()}))
dist.destroy_process_group()
