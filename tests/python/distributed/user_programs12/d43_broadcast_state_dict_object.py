import json, numpy as np, meshflow, meshflow.nn as nn
import meshflow.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
if rank == 0:
    g = np.random.default_rng(43)
    with meshflow.no_grad():
        for p in model.parameters():
            p.copy_(meshflow.from_numpy(g.standard_normal(tuple(p.shape)).astype(np.float32)))
box = [model.state_dict() if rank == 0 else None, {"epoch": 5}]
dist.broadcast_object_list(box, src=0)
model.load_state_dict(box[0])
x = meshflow.ones(2, 3)
y = model(x)
print("RESULT", rank, json.dumps({"y": [[round(v, 5) for v in r] for r in y.tolist()], "meta": box[1],
                                  "keys": list(box[0].keys())}))
dist.destroy_process_group()
