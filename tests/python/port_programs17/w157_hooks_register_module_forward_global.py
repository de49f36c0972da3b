import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)))
acts = {}


def save(name):
    def hook(mod, inp, out):
        acts[name] = out.detach().clone()
    return hook


handles = [mod.register_forward_hook(save(name)) for name, mod in m.named_modules() if isinstance(mod, nn.Linear)]
x = data(4, 2, seed=1)
y = m(x)
for h in handles:
    h.remove()
sd_hook_calls = []
m.register_state_dict_pre_hook(lambda mod, prefix, keep_vars: sd_hook_calls.append(prefix))
m._register_state_dict_hook(lambda mod, sd, prefix, local: sd.update({prefix + "extra": torch.ones(1)}) or sd)
sd = m.state_dict()
report(keys=sorted(acts), a0=acts["0"], a2=acts["2"], y=y, sdk=sorted(sd.keys()), calls=sd_hook_calls)
