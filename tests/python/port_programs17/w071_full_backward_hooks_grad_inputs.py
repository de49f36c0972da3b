import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(3, 4), nn.Sigmoid(), nn.Linear(4, 2)))
seen = {}


def bh(name):
    def hook(mod, gin, gout):
        seen[name] = ([None if g is None else g.clone() for g in gin], [g.clone() for g in gout])
        if name == "sig":
            return (gin[0] * 0.5,)
    return hook


def pre(mod, gout):
    seen["pre"] = gout[0].clone()
    return (gout[0] * 2,)


m[0].register_full_backward_hook(bh("lin0"))
m[1].register_full_backward_hook(bh("sig"))
m[2].register_full_backward_pre_hook(pre)
x = data(2, 3, seed=1).requires_grad_()
m(x).sum().backward()
report(lin0_in=seen["lin0"][0][0], lin0_out=seen["lin0"][1][0], sig_in=seen["sig"][0][0], pre=seen["pre"], xg=x.grad,
       wg=m[0].weight.grad)
