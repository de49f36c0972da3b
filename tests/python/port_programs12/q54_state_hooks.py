import torch
import torch.nn as nn
class Legacy(nn.Module):
    def __init__(self):
        super().__init__(); self.proj = nn.Linear(3, 2)
    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
        old = prefix + "fc.weight"
        if old in state_dict:
            state_dict[prefix + "proj.weight"] = state_dict.pop(old)
            state_dict[prefix + "proj.bias"] = state_dict.pop(prefix + "fc.bias")
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
m = Legacy()
old_sd = {"fc.weight": torch.ones(2, 3), "fc.bias": torch.tensor([1.0, 2.0])}
m.load_state_dict(old_sd)
wrapper = nn.Sequential(Legacy())
wrapper.load_state_dict({"0.fc.weight": torch.full((2, 3), 2.0), "0.fc.bias": torch.zeros(2)})
seen = []
def post(module, incompatible_keys):
    seen.append((type(module).__name__, list(incompatible_keys.missing_keys)))
m2 = det(nn.Linear(2, 2))
m2.register_load_state_dict_post_hook(post)
m2.load_state_dict({"weight": torch.eye(2)}, strict=False)
def sd_hook(module, state_dict, prefix, local_metadata):
    state_dict[prefix + "extra_scale"] = torch.tensor(3.0)
    return state_dict
m3 = nn.Linear(1, 1)
m3._register_state_dict_hook(sd_hook)
keys = list(m3.state_dict().keys())
class WithExtra(nn.Module):
    def __init__(self):
        super().__init__(); self.lin = nn.Linear(2, 2); self.counter = 5
    def get_extra_state(self):
        return {"counter": self.counter}
    def set_extra_state(self, state):
        self.counter = state["counter"]
we = WithExtra(); sd = we.state_dict(); we2 = WithExtra(); we2.counter = 0; we2.load_state_dict(sd)
report(w=m.proj.weight, b=m.proj.bias, w2=wrapper[0].proj.weight, seen=seen, keys=keys, ek=sorted(sd.keys()), counter=we2.counter, m2w=m2.weight)
