import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(2 * 4 * 4, 3)))
feats = {}


def save(name):
    def hook(mod, inp, out):
        feats[name] = out.detach()
    return hook


hs = [m[1].register_forward_hook(save("relu")), m[3].register_forward_hook(save("fc"))]
grads = {}
m[0].register_full_backward_hook(lambda mod, gi, go: grads.update(conv_go=go[0].shape))
pre = m[3].register_forward_pre_hook(lambda mod, args: (args[0] * 2,))
x = data(2, 1, 6, 6, seed=1)
y = m(x)
y.sum().backward()
for h in hs:
    h.remove()
pre.remove()
feats.clear()
y2 = m(x)
report(y=y, y2=y2, feats=len(feats), conv_go=list(grads["conv_go"]), n_hooks=len(m[3]._forward_hooks))
