import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
c = torch.tensor([4.0], requires_grad=True)
y = (a * b).sum()
ga, gb, gc = torch.autograd.grad(y, [a, b, c], allow_unused=True, retain_graph=True)
m = torch.autograd.grad(y, [a, c], allow_unused=True, materialize_grads=True, retain_graph=True)
try:
    torch.autograd.grad(y, [c])
    err = None
except RuntimeError as e:
    err = "unused" if "not have been used in the graph" in str(e) else str(e)
gg = torch.autograd.grad(y, a, grad_outputs=torch.tensor(2.0))
report(ga=ga, gb=gb, gc=gc is None, m=list(m), err=err, gg=gg)
