import torch
import torch.nn as nn


class Versioned(nn.Module):
    _version = 2

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 3)
        self.register_buffer("running", torch.zeros(3))

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
        version = local_metadata.get("version", None)
        old = prefix + "old_proj.weight"
        if old in state_dict:
            state_dict[prefix + "proj.weight"] = state_dict.pop(old)
            state_dict[prefix + "proj.bias"] = state_dict.pop(prefix + "old_proj.bias")
        if (version is None or version < 2) and prefix + "running" not in state_dict:
            state_dict[prefix + "running"] = torch.full((3,), 7.0)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)


class Outer(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Versioned()
        self.head = nn.Linear(3, 1)


m = det(Outer())
sd = m.state_dict()
meta = {k: v.get("version") for k, v in sd._metadata.items()}
legacy = {"inner.old_proj.weight": torch.eye(3), "inner.old_proj.bias": torch.ones(3), "head.weight": torch.ones(1, 3),
          "head.bias": torch.zeros(1)}
fresh = Outer()
res = fresh.load_state_dict(legacy)
calls = []
fresh.register_load_state_dict_post_hook(lambda mod, keys: calls.append((len(keys.missing_keys), len(keys.unexpected_keys))))
fresh.load_state_dict(m.state_dict())
pre = []
fresh.inner._register_load_state_dict_pre_hook(lambda *a, **k: pre.append(a[1]))
fresh.load_state_dict(m.state_dict(), strict=True)
sdh = []
h = fresh.register_state_dict_pre_hook(lambda mod, prefix, keep_vars: sdh.append(prefix))
fresh.state_dict()
report(meta=meta, running=fresh.inner.running, proj=fresh.inner.proj.bias, res=[res.missing_keys, res.unexpected_keys],
       calls=calls, pre=pre, sdh=sdh, same=torch.equal(fresh.head.weight, m.head.weight))
