import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
model = nn.Sequential(nn.Linear(2, 3), nn.LayerNorm(3))
with meshflow.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(meshflow.full(p.shape, float(rank * 10 + i)))
objs = [model.state_dict() if rank == 1 else None, {"lr": 0.1 * (rank + 1), "tag": f"from{rank}"}]
dist.broadcast_object_list(objs, src=1)
model.load_state_dict(objs[0])
params = [p.data for p in model.parameters()]
for p in params:
    dist.broadcast(p, src=0)  # then rank 0's tensors win again
first = list(model.parameters())[0]
print("RESULT", rank, json.dumps({"cfg": objs[1], "w0": first.flatten().tolist(),
                                  "ln": model[1].weight.tolist(), "keys": list(objs[0].keys())}))
dist.destroy_process_group()
