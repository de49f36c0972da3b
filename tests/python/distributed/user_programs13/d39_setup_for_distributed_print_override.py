import builtins, json, os, numpy as np, meshflow, meshflow.nn as nn, meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP

def setup_for_distributed(is_master):
    builtin_print = builtins.print
    def print(*args, **kwargs):
        force = kwargs.pop("force", False)
        if is_master or force:
            builtin_print(*args, **kwargs)
    builtins.print = print
    return builtin_print

def init_distributed_mode(args):
    if "RANK" in os.environ and "WORLD_SIZE" in os.environ:
        args["rank"] = int(os.environ["RANK"])
        args["world_size"] = int(os.environ["WORLD_SIZE"])
        args["gpu"] = int(os.environ["LOCAL_RANK"])
    args["distributed"] = True
    args["dist_backend"] = "gloo"
    dist.init_process_group(backend=args["dist_backend"], init_method="env://", world_size=args["world_size"], rank=args["rank"])
    dist.barrier()
    return setup_for_distributed(args["rank"] == 0)

args = {}
orig = init_distributed_mode(args)
model = nn.Linear(2, 2)
with meshflow.no_grad():
    model.weight.copy_(meshflow.eye(2)); model.bias.zero_()
model = DDP(model)
model_without_ddp = model.module
opt = meshflow.optim.SGD(model.parameters(), lr=0.1)
x = meshflow.tensor([[1.0, 2.0]]) * (args["rank"] + 1)
loss = model(x).sum()
loss.backward(); opt.step()
print("RESULT", args["rank"], json.dumps({"who": "master only"}))
print("RESULT", args["rank"], json.dumps({"args": args, "w": model_without_ddp.weight.tolist()}), force=True)
builtins.print = orig
dist.destroy_process_group()
