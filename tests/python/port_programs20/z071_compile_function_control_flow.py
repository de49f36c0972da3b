import torch


def f(x, flag: bool):
    if flag:
        y = x.relu()
    else:
        y = x.sigmoid()
    for i in range(3):
        y = y * 0.5 + i
    if y.sum() > 10:
        y = y - 1
    return y


cf = torch.compile(f, backend="eager")
cf2 = torch.compile(f, fullgraph=False)
x = data(4)
a = cf(x, True)
b = cf2(x, False)
c = cf2(x * 10, True)
g = x.clone().requires_grad_(True)
cf2(g, True).sum().backward()


@torch.compile(mode="max-autotune-no-cudagraphs")
def norm(t):
    return t / t.norm(dim=-1, keepdim=True)


report(a=a, b=b, c=c, g=g.grad, n=norm(data(2, 3)))
