import torch
from torch import nn
import torch.nn.functional as F


class MyLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features))
        self.bias = nn.Parameter(torch.randn(out_features))

    def forward(self, input):
        return (input @ self.weight) + self.bias


class DynamicNet(nn.Module):
    def __init__(self, num_layers):
        super().__init__()
        self.linears = nn.ModuleList([MyLinear(4, 4) for _ in range(num_layers)])
        self.activations = nn.ModuleDict({'relu': nn.ReLU(), 'lrelu': nn.LeakyReLU()})
        self.final = MyLinear(4, 1)

    def forward(self, x, act):
        for linear in self.linears:
            x = linear(x)
            x = self.activations[act](x)
        x = self.final(x)
        return x


class RunningMean(nn.Module):
    def __init__(self, num_features, momentum=0.9):
        super().__init__()
        self.momentum = momentum
        self.register_buffer('mean', torch.zeros(num_features))

    def forward(self, x):
        self.mean = self.momentum * self.mean + (1.0 - self.momentum) * x
        return self.mean


dynamic_net = det(DynamicNet(3), seed=1)
sample_input = data(4, seed=2)
output = dynamic_net(sample_input, 'relu')
output2 = dynamic_net(sample_input, 'lrelu')
names = [n for n, _ in dynamic_net.named_parameters()]
m = RunningMean(4)
for _ in range(3):
    m(torch.tensor([1.0, 2.0, 3.0, 4.0]))
sd = m.state_dict()


def init_weights(m):
    if isinstance(m, MyLinear):
        with torch.no_grad():
            m.weight.fill_(0.1)
            m.bias.zero_()


dynamic_net.apply(init_weights)
out3 = dynamic_net(sample_input, 'relu')
dynamic_net.to(dtype=torch.float64)
out4 = dynamic_net(sample_input.double(), 'relu')
dynamic_net.requires_grad_(False)
report(output=output, output2=output2, names=names, mean=m.mean, sd=list(sd.keys()), out3=out3, out4=out4,
       dtype=dynamic_net.final.weight.dtype, rg=any(p.requires_grad for p in dynamic_net.parameters()),
       children=[n for n, _ in dynamic_net.named_children()], buffers=[n for n, _ in m.named_buffers()])
