import torch
import math

n = 64
t = torch.arange(n) / n
x = torch.sin(2 * math.pi * 4 * t) + 0.5 * torch.sin(2 * math.pi * 20 * t)
X = torch.fft.rfft(x)
freqs = torch.fft.rfftfreq(n, d=1 / n)
X_f = X * (freqs < 10)
y = torch.fft.irfft(X_f, n=n)
err = (y - torch.sin(2 * math.pi * 4 * t)).abs().max()
F2 = torch.fft.fft2(data(4, 4))
shift = torch.fft.fftshift(torch.fft.fftfreq(6))
conv_fft = torch.fft.irfft(torch.fft.rfft(torch.tensor([1.0, 2.0, 3.0, 0.0, 0.0])) * torch.fft.rfft(torch.tensor([1.0, 1.0, 0.0, 0.0, 0.0])), n=5)
ortho = torch.fft.fft(x, norm="ortho")
parseval = (x.pow(2).sum() - ortho.abs().pow(2).sum()).abs()
report(peaks=X.abs().topk(2).indices.sort().values, err_small=bool(err < 1e-4), F2_00=torch.view_as_real(F2[0, 0]), shift=shift, conv=conv_fft,
       parseval=bool(parseval < 1e-3), freqs=freqs[:5], hfft=torch.fft.hfft(torch.tensor([1.0, 2.0, 3.0]) + 0j).shape, ifft=torch.fft.ifft(torch.fft.fft(x)).real[:3])
