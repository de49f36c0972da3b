import torch
import torch.nn as nn


class Mix(nn.Module):
    def __init__(self):
        super().__init__()
        self.ws = nn.ParameterList([nn.Parameter(torch.ones(2) * i) for i in range(3)])
        self.pd = nn.ParameterDict({"a": nn.Parameter(torch.tensor([1.0, 2.0])), "b": nn.Parameter(torch.zeros(2))})
        self.register_parameter("extra", None)
        self.add_module("lin", nn.Linear(2, 2))
        self.register_module("act", nn.ReLU())

    def forward(self, x):
        for w in self.ws:
            x = x * w + self.pd["a"]
        return self.act(self.lin(x))


m = det(Mix())
m.ws.append(nn.Parameter(torch.ones(2)))
m.pd["c"] = nn.Parameter(torch.full((2,), 0.5))
names = [n for n, _ in m.named_parameters()]
x = data(3, 2)
y = m(x)
y.sum().backward()
report(names=names, y=y, g=m.ws[0].grad, n=len(m.ws), keys=list(m.pd.keys()), extra=m.extra is None, r=repr(m.ws).split("\n")[0],
       sd=list(m.state_dict().keys()))
