import torch

x = data(2, 8, 8, seed=2)
X = torch.fft.rfft2(x)
fy = torch.fft.fftfreq(8)
fx = torch.fft.rfftfreq(8)
r = torch.sqrt(fy[:, None] ** 2 + fx[None, :] ** 2)
low = X * (r < 0.25)
y = torch.fft.irfft2(low, s=(8, 8))
F1 = torch.fft.fft(x[0, 0], norm="ortho")
power = torch.fft.fftshift(torch.fft.fft2(x[0]).abs() ** 2)
conv = torch.fft.irfft(torch.fft.rfft(x[0, 0], n=16) * torch.fft.rfft(x[0, 1], n=16), n=16)
report(y=y[0, :2], F1=torch.view_as_real(F1[:3]), power=power[3:5, 3:5], conv=conv, shape=list(X.shape), fy=fy, fx=fx)
# TOL 5e-4
