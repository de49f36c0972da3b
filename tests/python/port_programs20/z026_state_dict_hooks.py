import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.register_buffer("running", torch.zeros(2))
        self.register_buffer("cache", torch.ones(3), persistent=False)
        self._register_load_state_dict_pre_hook(self._rename)

    def _rename(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
        old = prefix + "old_lin.weight"
        if old in state_dict:
            state_dict[prefix + "lin.weight"] = state_dict.pop(old)


m = det(M())
sd = m.state_dict()
keys = list(sd.keys())
meta = sd._metadata[""]["version"] if hasattr(sd, "_metadata") else None
bufs = sorted(n for n, _ in m.named_buffers())
sd2 = {"old_lin.weight": torch.eye(2), "lin.bias": torch.zeros(2), "running": torch.ones(2)}
res = m.load_state_dict(sd2)
calls = []


def post_hook(module, incompatible_keys):
    calls.append((sorted(incompatible_keys.missing_keys), sorted(incompatible_keys.unexpected_keys)))


m.register_load_state_dict_post_hook(post_hook)
r2 = m.load_state_dict({"lin.weight": torch.eye(2), "extra": torch.ones(1)}, strict=False)


def sd_hook(module, state_dict, prefix, local_metadata):
    state_dict[prefix + "added"] = torch.tensor(7.0)
    return state_dict


m._register_state_dict_hook(sd_hook)
k3 = sorted(m.state_dict().keys())
report(keys=keys, bufs=bufs, w=m.lin.weight, running=m.running, missing=res.missing_keys, unexpected=res.unexpected_keys,
       calls=[list(map(list, c)) for c in calls], r2=[r2.missing_keys, r2.unexpected_keys], k3=k3,
       cache_in=("cache" in m.state_dict()), cache=m.cache)
