import torch
import torch.nn as nn


class Enc(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3)
        self.bn = nn.BatchNorm2d(2)
        self.act = nn.ReLU()
        self.blocks = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2)])
        self.heads = nn.ModuleDict({"a": nn.Linear(2, 1), "b": nn.Identity()})


m = nn.Sequential(Enc(), nn.Sequential(nn.Dropout(0.1), nn.Linear(2, 3)))
names = [n for n, _ in m.named_modules()]
children = [n for n, _ in m.named_children()]
params = [(n, tuple(p.shape)) for n, p in m.named_parameters()]
bufs = [n for n, _ in m.named_buffers()]
linears = [n for n, mod in m.named_modules() if isinstance(mod, nn.Linear)]
no_decay = [n for n, p in m.named_parameters() if p.ndim < 2 or "bn" in n]
sub = m.get_submodule("0.blocks.1")
p = m.get_parameter("1.1.bias")
m.apply(lambda mod: isinstance(mod, nn.Linear) and nn.init.zeros_(mod.bias))
for mod in m.modules():
    if isinstance(mod, nn.BatchNorm2d):
        mod.eval()
modes = [mod.training for mod in m.modules()][:4]
m[0].heads["c"] = nn.Tanh()
del m[0].blocks[0]
report(names=names, children=children, params=[list(x) for x in params], bufs=bufs, linears=linears, no_decay=no_decay,
       sub=str(sub), pshape=p.shape, bias=m[1][1].bias, modes=modes, heads=list(m[0].heads.keys()), nblocks=len(m[0].blocks),
       repr=repr(m[0].heads), nparams=sum(p.numel() for p in m.parameters() if p.requires_grad))
