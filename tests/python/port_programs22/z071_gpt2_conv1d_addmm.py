import torch
import torch.nn as nn

class Conv1D(nn.Module):
    def __init__(self, nf, nx):
        super().__init__()
        self.nf = nf
        self.weight = nn.Parameter(torch.empty(nx, nf))
        self.bias = nn.Parameter(torch.zeros(nf))
        nn.init.normal_(self.weight, std=0.02)

    def forward(self, x):
        size_out = x.size()[:-1] + (self.nf,)
        x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        return x.view(size_out)

c = det(Conv1D(6, 4), seed=87)
x = data(2, 3, 4, seed=88).requires_grad_()
y = c(x)
y.pow(2).sum().backward()
lin = nn.Linear(4, 6)
with torch.no_grad():
    lin.weight.copy_(c.weight.t())
    lin.bias.copy_(c.bias)
report(y=y[1], xg=x.grad[0], wg=c.weight.grad, same=bool(torch.allclose(lin(x), y, atol=1e-6)),
       addmm=torch.addmm(torch.ones(2, 2), torch.eye(2), torch.full((2, 2), 2.0), beta=0.5, alpha=3))
