import torch

z = torch.tensor([1.0 + 2.0j, -0.5 + 0.3j, 2.0 - 1.0j], requires_grad=True)
loss = (z.abs() + z.angle() + (z * z.conj()).real + torch.exp(z).imag).sum()
loss.backward()
w = torch.randn(0)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([0.5, -1.0], requires_grad=True)
c = torch.complex(a, b)
(c * c).abs().sum().backward()
p = torch.polar(torch.tensor([2.0], requires_grad=True), torch.tensor([0.3], requires_grad=True))
report(zg=torch.view_as_real(z.grad), ag=a.grad, bg=b.grad, loss=loss, pr=torch.view_as_real(p.detach()),
       real_view=torch.view_as_real(z.detach())[:, 0], promote=(torch.ones(2) * (1 + 1j)).dtype, c64=(torch.ones(2, dtype=torch.complex64) + 1.0).dtype)
