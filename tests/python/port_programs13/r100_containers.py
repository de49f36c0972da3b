import torch
import torch.nn as nn
from collections import OrderedDict
seq = nn.Sequential(OrderedDict([("fc1", nn.Linear(3, 4)), ("act", nn.ReLU()), ("fc2", nn.Linear(4, 2))]))
det(seq)
sub = seq[:2]
md = nn.ModuleDict({"enc": nn.Linear(2, 2), "dec": nn.Linear(2, 2)})
md["extra"] = nn.Identity()
md.update({"z": nn.Tanh()})
pl = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(3))])
pl.append(nn.Parameter(torch.full((1,), 5.0)))
pd = nn.ParameterDict({"a": nn.Parameter(torch.ones(1))})
pd["b"] = nn.Parameter(torch.zeros(2))
class Holder(nn.Module):
    def __init__(self):
        super().__init__()
        self.pl, self.pd, self.md = pl, pd, md
h = Holder()
x = data(2, 3)
report(names=[n for n, _ in seq.named_children()], sub=type(sub).__name__, sublen=len(sub), out=seq(x), fc1=seq.fc1 is seq[0], keys=list(md.keys()), pop=type(md.pop("z")).__name__,
       pl=[list(p.shape) for p in pl], pd=sorted(pd.keys()), hp=[n for n, _ in h.named_parameters()], last=type(seq[-1]).__name__, contains="enc" in md, rep=repr(seq).splitlines()[1])
