import torch
import torch.nn as nn

net = det(nn.Sequential(nn.Conv2d(1, 3, 3), nn.ReLU(), nn.Flatten(), nn.Linear(3 * 4 * 4, 2)))
feats = {}


def save(name):
    def hook(module, inp, out):
        feats[name] = out.detach()
    return hook


h1 = net[1].register_forward_hook(save("relu"))
h2 = net[3].register_forward_pre_hook(lambda m, inp: (inp[0] * 0.5,))
calls = []
h3 = net[0].register_forward_hook(lambda m, i, o: calls.append(tuple(o.shape)))
x = data(2, 1, 6, 6)
out = net(x)
h1.remove()
h2.remove()
out2 = net(x)
h3.remove()
net(x)
report(relu=feats["relu"].sum(), out=out, out2=out2, calls=calls, keys=list(feats))
