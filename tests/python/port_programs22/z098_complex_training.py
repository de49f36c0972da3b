import torch

w = torch.tensor([0.5 + 0.2j, -0.3 + 0.1j], requires_grad=True)
x = torch.complex(data(6, 2, seed=137), data(6, 2, seed=138))
target = x @ torch.tensor([1.0 - 1.0j, 0.5 + 0.5j])
opt = torch.optim.SGD([w], lr=0.05)
ls = []
for _ in range(5):
    loss = (x @ w - target).abs().pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    ls.append(loss.item())
z = torch.tensor([1 + 1j], requires_grad=True)
(z.abs() ** 2).sum().backward()
report(ls=ls, w=torch.view_as_real(w.detach()), zgrad=torch.view_as_real(z.grad), loss_dtype=loss.dtype,
       mm=torch.view_as_real(x[:2] @ w.detach()), cat=torch.view_as_real(torch.cat([w.detach(), w.detach().conj()])))
