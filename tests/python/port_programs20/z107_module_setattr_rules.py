import torch
import torch.nn as nn

m = nn.Linear(2, 2)
errs = []
try:
    m.weight = torch.ones(2, 2)
except TypeError as e:
    errs.append("type")
m.weight = nn.Parameter(torch.ones(2, 2))
m.scale = 3.0
m.extra = nn.Parameter(torch.zeros(1))
try:
    m.register_buffer("weight", torch.zeros(1))
except KeyError as e:
    errs.append("key")
m.register_buffer("buf", torch.zeros(2))
m.buf = torch.ones(2)
try:
    m.buf = 5
except TypeError:
    errs.append("buf-type")
names = [n for n, _ in m.named_parameters()]
delattr(m, "extra")
has = hasattr(m, "extra")
report(errs=errs, names=names, has=has, buf=m.buf, scale=m.scale, sd=list(m.state_dict().keys()), w=m.weight)
