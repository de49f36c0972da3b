import torch

x = torch.ones(5)
y = torch.zeros(3)
w = torch.tensor([[0.1 * (i - j) for j in range(3)] for i in range(5)], requires_grad=True)
b = torch.tensor([0.2, -0.1, 0.3], requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
grad_fn_z = type(z.grad_fn).__name__
grad_fn_loss = type(loss.grad_fn).__name__
loss.backward()
wg, bg = w.grad.clone(), b.grad.clone()
z = torch.matmul(x, w) + b
rg1 = z.requires_grad
with torch.no_grad():
    z = torch.matmul(x, w) + b
rg2 = z.requires_grad
z = torch.matmul(x, w) + b
z_det = z.detach()
rg3 = z_det.requires_grad
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
first = inp.grad.clone()
out.backward(torch.ones_like(out), retain_graph=True)
second = inp.grad.clone()
inp.grad.zero_()
out.backward(torch.ones_like(out))
third = inp.grad.clone()
try:
    out.backward(torch.ones_like(out))
    freed = False
except RuntimeError as e:
    freed = "second time" in str(e)
report(loss=loss, wg=wg, bg=bg, grad_fn_z=grad_fn_z, grad_fn_loss=grad_fn_loss, rg=[rg1, rg2, rg3],
       first=first, second=second, third=third, freed=freed)
