import json, os, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.nn.parallel import DistributedDataParallel as DDP
def setup():
    rank = int(os.environ["RANK"]); local_rank = int(os.environ.get("LOCAL_RANK", 0)); world = int(os.environ["WORLD_SIZE"])
    dist.init_process_group(backend="gloo", rank=rank, world_size=world)
    return rank, local_rank, world
def main():
    rank, local_rank, world = setup()
    device = meshflow.device("cpu")
    g = np.random.default_rng(32)
    model = nn.Linear(3, 2).to(device)
    with meshflow.no_grad():
        for p in model.parameters():
            p.copy_(meshflow.from_numpy(g.standard_normal(tuple(p.shape)).astype(np.float32)))
    ddp = DDP(model)
    opt = meshflow.optim.SGD(ddp.parameters(), lr=0.1)
    x = meshflow.full((2, 3), float(rank + 1), device=device)
    loss = ddp(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print("RESULT", rank, json.dumps({"local_rank": local_rank, "world": world, "addr": "MASTER_ADDR" in os.environ, "port": "MASTER_PORT" in os.environ,
                                      "same_rank": dist.get_rank() == rank, "w": round(model.weight.sum().item(), 5)}))
    dist.destroy_process_group()
if __name__ == "__main__":
    main()
