import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2, 3)), seed=1)
feats = {}
grads = {}


def save(name):
    def hook(mod, inp, out):
        feats[name] = out.detach()
    return hook


h = model[1].register_forward_hook(save("relu"))
model[4].register_full_backward_hook(lambda m, gi, go: grads.update(go=go[0].clone(), gi=gi[0].clone()))
pre = model[0].register_forward_pre_hook(lambda m, args: (args[0] * 2,))
out = model(data(2, 1, 5, 5, seed=2))
out.sum().backward()
h.remove()
pre.remove()
out2 = model(data(2, 1, 5, 5, seed=2))
report(relu=feats["relu"][0, 1], go=grads["go"], gi=grads["gi"], out=out.detach(), out2=out2.detach(),
       keys=sorted(feats))
