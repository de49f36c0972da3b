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
class Square(meshflow.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x); return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors; return 2 * x * g
class Net(nn.Module):
    def __init__(self):
        super().__init__(); self.fc = nn.Linear(4, 4); self.out = nn.Linear(4, 1)
    def forward(self, x):
        return self.out(Square.apply(self.fc(x)))
net = Net(); init_(net, 47)
model = DDP(net)
opt = meshflow.optim.SGD(model.parameters(), lr=0.05)
rng = np.random.default_rng(470 + rank)
x = meshflow.from_numpy(rng.standard_normal((5, 4)).astype(np.float32)); y = meshflow.from_numpy(rng.standard_normal((5, 1)).astype(np.float32))
F.mse_loss(model(x), y).backward()
norm = meshflow.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0, norm_type=2.0)
gv = meshflow.nn.utils.parameters_to_vector([p.grad for p in model.parameters()])
opt.step()
vec = meshflow.nn.utils.parameters_to_vector(model.parameters())
print("RESULT", rank, json.dumps({"norm": round(norm.item(), 5), "gnorm_after": round(gv.norm().item(), 5), "vec": round(vec.sum().item(), 5), "numel": vec.numel()}))
dist.destroy_process_group()
