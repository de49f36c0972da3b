import torch
import torch.nn as nn

s = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 4), nn.Tanh())
head = s[:2]
tail = s[-2:]
s.append(nn.Linear(4, 1))
s.insert(0, nn.Identity())
s.extend([nn.Sigmoid()])
ml = nn.ModuleList([nn.Linear(1, 1)])
ml.extend([nn.ReLU(), nn.Tanh()])
ml.insert(1, nn.Identity())
from collections import OrderedDict
od = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.GELU())]))
od.fc = nn.Linear(2, 5)
s2 = nn.Sequential(*list(s.children())[:-1])
pop = s.pop(0)
del s[-1]
report(head=[type(m).__name__ for m in head], tail=[type(m).__name__ for m in tail], s=[type(m).__name__ for m in s],
       ml=[type(m).__name__ for m in ml], od=[n for n, _ in od.named_children()], fc=od.fc.out_features, s2=len(s2), pop=type(pop).__name__,
       cls=type(head).__name__, idx=ml.__len__(), r=repr(od))
