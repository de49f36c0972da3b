"""Records what torch reports for each program here, on each rank: expected_<world>.json.
Run under torch (gloo, CPU), with numpy, e.g.
  scripts/mpirun 4 -x PYTHONPATH=$(echo /root/tv/lib/python3*/site-packages) /usr/bin/python3 \\
      tests/python/distributed/dtensor_programs/record_torch.py
"""
import glob
import json
import os

import numpy as np
import torch
import torch.distributed as dist

HERE = os.path.dirname(os.path.abspath(__file__))
os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29517")
os.environ["RANK"], os.environ["WORLD_SIZE"] = os.environ["OMPI_COMM_WORLD_RANK"], os.environ["OMPI_COMM_WORLD_SIZE"]



def plain(v):
    """As test_port_programs9._plain writes meshflow's values."""
    if isinstance(v, torch.Tensor):
        v = v.detach()
        return {"__t": v.numpy().tolist(), "dtype": str(v.dtype).split(".")[-1], "shape": list(v.shape)}
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    return v


def det(model, seed=0, scale=0.2):
    """torch's twin of test_port_programs9._det, which gives meshflow's run the same weights."""
    rs = np.random.RandomState(seed)
    with torch.no_grad():
        for n, p in model.named_parameters():
            one = 1.0 if p.dim() == 1 and n.endswith("weight") else 0.0
            p.copy_(torch.from_numpy((rs.standard_normal(tuple(p.shape)) * scale + one).astype(np.float32)))
    return model


results = {}
for path in sorted(glob.glob(os.path.join(HERE, "d*.py"))):
    reported = {}
    exec(compile(open(path).read(), path, "exec"), {"report": lambda **values: reported.update(plain(values)),
                                                    "det": det, "__name__": "program"})
    results[os.path.basename(path)[:-3]] = reported
every = [None] * dist.get_world_size()
dist.all_gather_object(every, results)
if dist.get_rank() == 0:
    by_name = {name: [r[name] for r in every] for name in results}
    with open(os.path.join(HERE, f"expected_{dist.get_world_size()}.json"), "w") as f:
        json.dump(by_name, f)
dist.destroy_process_group()
