import json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
model = nn.Linear(3, 2)
with meshflow.no_grad():
    model.weight.copy_(meshflow.tensor([[1.0, -1.0, 0.5], [0.2, 0.3, -0.4]]))
    model.bias.zero_()
x = meshflow.tensor(np.random.default_rng(27 + rank).standard_normal((4 + rank, 3)).astype(np.float32))
with meshflow.no_grad():
    pred = model(x).argmax(1)
metrics = {"rank": rank, "n": int(x.shape[0]), "pos": int((pred == 1).sum().item()), "preds": pred.tolist()}
gathered = [None] * world if rank == 0 else None
dist.gather_object(metrics, gathered, dst=0)
summary = None
if rank == 0:
    summary = {"n": sum(m["n"] for m in gathered), "pos": sum(m["pos"] for m in gathered),
               "order": [m["rank"] for m in gathered]}
box = [summary]
dist.broadcast_object_list(box, src=0)
print("RESULT", rank, json.dumps({"mine": metrics, "summary": box[0]}))
dist.destroy_process_group()
