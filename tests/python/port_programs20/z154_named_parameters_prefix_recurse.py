import torch
import torch.nn as nn

shared = nn.Linear(2, 2)
m = nn.Sequential(shared, nn.ReLU(), shared)
m.register_parameter("scale", nn.Parameter(torch.ones(1)))
report(np=[n for n, _ in m.named_parameters()], np_dup=[n for n, _ in m.named_parameters(remove_duplicate=False)],
       top=[n for n, _ in m.named_parameters(recurse=False)], pre=[n for n, _ in m.named_parameters(prefix="model")],
       n=len(list(m.parameters())), nr=len(list(m.parameters(recurse=False))), mods=[n for n, _ in m.named_modules()],
       mods_dup=[n for n, _ in m.named_modules(remove_duplicate=False)], children=len(list(m.children())),
       buffers=list(dict(nn.BatchNorm1d(2).named_buffers(prefix="bn")).keys()))
