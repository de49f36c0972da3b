import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d, p=0.1):
        super().__init__()
        self.d, self.p = d, p
        self.lin = nn.Linear(d, d)
        self.act = nn.ReLU()

    def extra_repr(self):
        return f"d={self.d}, p={self.p}"


p = nn.Parameter(torch.tensor([1.0, 2.0]))
q = nn.Parameter(torch.tensor([1, 2]), requires_grad=False)
m = nn.Sequential(Block(2), nn.Sequential(nn.Linear(2, 1)), nn.ModuleList([nn.Tanh()]))
pl = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(1, 3))])
pd = nn.ParameterDict({"a": nn.Parameter(torch.ones(1))})
report(p=repr(p), q=repr(q), m=repr(m), pl=repr(pl), pd=repr(pd), s=str(torch.Size([2, 3])), dt=repr(torch.float16), dev=repr(torch.device("cpu")),
       dev0=str(torch.device("cpu", 0)) if False else str(torch.device("cpu")), seq0=repr(m[0]), empty=repr(nn.Sequential()))
