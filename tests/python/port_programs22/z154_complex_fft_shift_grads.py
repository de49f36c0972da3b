import torch

x = data(2, 8, seed=215).requires_grad_()
X = torch.fft.fftshift(torch.fft.fft(x, dim=-1), dim=-1)
mag = X.abs()
(mag * torch.linspace(0, 1, 8)).sum().backward()
z = torch.complex(data(3, seed=216), data(3, seed=217)).requires_grad_()
w = torch.complex(data(3, 3, seed=218), data(3, 3, seed=219))
y = (w @ z)
y.abs().sum().backward()
zero = torch.zeros(2, dtype=torch.complex64, requires_grad=True)
zero.abs().sum().backward()
report(mag=mag[0], xg=x.grad[1], zg=torch.view_as_real(z.grad), zero_g=torch.view_as_real(zero.grad), cp=torch.view_as_real(torch.conj_physical(z.detach())),
       shift=torch.view_as_real(X.detach()[0, :2]))
