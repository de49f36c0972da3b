import torch
sig = data(64)
ker = torch.tensor([0.25, 0.5, 0.25])
n = sig.numel() + ker.numel() - 1
conv = torch.fft.irfft(torch.fft.rfft(sig, n=n) * torch.fft.rfft(ker, n=n), n=n)
direct = torch.nn.functional.conv1d(sig.view(1, 1, -1), ker.flip(0).view(1, 1, -1), padding=2).view(-1)
F = torch.fft.fft(sig)
freqs = torch.fft.fftfreq(64, d=0.1)
shifted = torch.fft.fftshift(freqs)
power = F.abs() ** 2
img = data(8, 8, seed=3)
F2 = torch.fft.fft2(img)
back = torch.fft.ifft2(F2).real
rf = torch.fft.rfftn(img, norm="ortho")
z = torch.complex(torch.tensor([1.0, 0.0]), torch.tensor([1.0, -2.0]))
report(same=torch.allclose(conv, direct, atol=1e-5), conv=conv[:4], freqs=shifted[:3], power=power[:3], back=torch.allclose(back, img, atol=1e-5),
       rf_shape=list(rf.shape), rf=rf[0, :2].abs(), z_abs=z.abs(), z_ang=z.angle(), zc=torch.view_as_real(z.conj() * z), dt=str(F.dtype), rfreq=torch.fft.rfftfreq(6))
