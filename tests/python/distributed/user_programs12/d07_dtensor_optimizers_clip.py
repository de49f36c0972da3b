import json, numpy as np, meshflow, meshflow.nn as nn, meshflow.nn.functional as F
import meshflow.distributed as dist
from meshflow.distributed.device_mesh import init_device_mesh
from meshflow.distributed.tensor import DTensor
from meshflow.distributed.tensor.parallel import parallelize_module, ColwiseParallel, RowwiseParallel
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
mesh = init_device_mesh("cpu", (world,))
def make():
    net = nn.Sequential(nn.Linear(5, 10), nn.Tanh(), nn.Linear(10, 5))
    g = np.random.default_rng(8)
    with meshflow.no_grad():
        for p in net.parameters():
            p.copy_(meshflow.from_numpy((g.standard_normal(tuple(p.shape)) * 0.4).astype(np.float32)))
    return parallelize_module(net, mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
out = {}
for name, make_opt in [("sgd_nesterov", lambda ps: meshflow.optim.SGD(ps, lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-3)),
                       ("adamw", lambda ps: meshflow.optim.AdamW(ps, lr=0.01, amsgrad=True)),
                       ("rmsprop", lambda ps: meshflow.optim.RMSprop(ps, lr=0.01, momentum=0.5)),
                       ("adagrad", lambda ps: meshflow.optim.Adagrad(ps, lr=0.05))]:
    net = make()
    opt = make_opt(net.parameters())
    rng = np.random.default_rng(9)
    norms = []
    for _ in range(3):
        x = meshflow.from_numpy(rng.standard_normal((4, 5)).astype(np.float32))
        loss = F.smooth_l1_loss(net(x), x.flip(1))
        opt.zero_grad(); loss.backward()
        total = nn.utils.clip_grad_norm_(net.parameters(), max_norm=0.5)
        if isinstance(total, DTensor):
            total = total.full_tensor()
        norms.append(round(total.item(), 5))
        opt.step()
    out[name] = {"norms": norms, "w0": round(net[0].weight.full_tensor().sum().item(), 5),
                 "b2": [round(v, 5) for v in net[2].bias.full_tensor().tolist()],
                 "state_keys": sorted(opt.state_dict()["state"][0].keys())}
print("RESULT", rank, json.dumps(out))
dist.destroy_process_group()
