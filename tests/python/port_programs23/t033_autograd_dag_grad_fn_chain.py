import torch

x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = torch.exp(x) * torch.sin(x)
z = y.mean()
names = []
fn = z.grad_fn
while fn is not None:
    names.append(type(fn).__name__)
    nxt = [f for f, _ in fn.next_functions if f is not None]
    fn = nxt[0] if nxt else None
z.backward()
report(names=names, xg=x.grad, z=z)
