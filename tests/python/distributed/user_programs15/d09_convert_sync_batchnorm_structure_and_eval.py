import json
import numpy as np
import meshflow
import meshflow.nn as nn
import meshflow.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
model = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(),
                      nn.Sequential(nn.Conv2d(4, 4, 1), nn.BatchNorm2d(4, momentum=0.2)), nn.AdaptiveAvgPool2d(1),
                      nn.Flatten(), nn.Linear(4, 3), nn.BatchNorm1d(3))
g = np.random.default_rng(9)
with meshflow.no_grad():
    for p in model.parameters():
        p.copy_(meshflow.tensor(g.standard_normal(tuple(p.shape)).astype(np.float32) * 0.5))
    model[1].running_mean.copy_(meshflow.tensor([0.1, 0.2, 0.3, 0.4]))
sync = nn.SyncBatchNorm.convert_sync_batchnorm(model)
kinds = [type(m).__name__ for m in sync.modules()]
bn = sync[1]
info = {"kinds": kinds, "same_obj": sync is model, "momentum": sync[3][1].momentum, "eps": bn.eps,
        "affine": bn.affine, "rm": bn.running_mean.tolist(), "w": round(bn.weight.sum().item(), 5),
        "params": sum(p.numel() for p in sync.parameters()),
        "buffers": sorted(n for n, _ in sync.named_buffers())}
print("RESULT", rank, json.dumps(info))
dist.destroy_process_group()
