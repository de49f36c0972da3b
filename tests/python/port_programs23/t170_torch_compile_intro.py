import torch


def foo(x, y):
    a = torch.sin(x)
    b = torch.cos(y)
    return a + b


opt_foo1 = torch.compile(foo)
x, y = data(4, 4, seed=1), data(4, 4, seed=2)
r1 = opt_foo1(x, y)


@torch.compile
def opt_foo2(x, y):
    a = torch.sin(x)
    b = torch.cos(y)
    return a + b


r2 = opt_foo2(x, y)


class MyModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        return torch.nn.functional.relu(self.lin(x))


mod = det(MyModule(), seed=3)
opt_mod = torch.compile(mod)
r3 = opt_mod(x)
eager = mod(x)
opt = torch.optim.SGD(opt_mod.parameters(), lr=0.1)
for _ in range(2):
    opt.zero_grad()
    opt_mod(x).sum().backward()
    opt.step()
report(r1=r1, same1=torch.allclose(r1, foo(x, y)), same2=torch.allclose(r2, r1), r3=r3, same3=torch.allclose(r3, eager),
       w=mod.lin.bias, names=[n for n, _ in opt_mod.named_parameters()][:2])
