import math
import torch

n = 16
t = torch.arange(n) / n
sig = torch.sin(2 * math.pi * 3 * t) + 0.5 * torch.cos(2 * math.pi * 5 * t)
X = torch.fft.rfft(sig)
r = {}
r["mag"] = X.abs()
r["peak"] = X.abs().argmax()
r["irfft_ok"] = torch.allclose(torch.fft.irfft(X, n=n), sig, atol=1e-5)
F = torch.fft.fft(sig.to(torch.complex64))
r["fft_real"] = F.real[:4]
r["fft_imag"] = F.imag[:4]
r["freqs"] = torch.fft.rfftfreq(n, d=1 / n)
r["fftfreq"] = torch.fft.fftfreq(5)
r["shift"] = torch.fft.fftshift(torch.arange(6))
img = data(4, 4)
r["fft2_ok"] = torch.allclose(torch.fft.ifft2(torch.fft.fft2(img)).real, img, atol=1e-5)
r["rfft2_shape"] = torch.fft.rfft2(img).shape
r["ortho"] = torch.view_as_real(torch.fft.fft(torch.ones(4), norm="ortho"))
z = torch.complex(torch.tensor([1., 0.]), torch.tensor([1., 2.]))
r["angle"] = z.angle()
r["conj"] = torch.view_as_real(z.conj().resolve_conj())
r["polar"] = torch.view_as_real(torch.polar(torch.tensor([2.]), torch.tensor([math.pi / 2])))
r["mul"] = torch.view_as_real(z * z)
r["cdtype"] = str(z.dtype)
r["abs_dtype"] = str(z.abs().dtype)
r["is_complex"] = z.is_complex()
vc = torch.view_as_complex(torch.tensor([[1., 2.], [3., 4.]]))
r["vc"] = [vc.real.tolist(), vc.imag.tolist()]
x = torch.randn(8, dtype=torch.cfloat)
r["randn_c"] = str(x.dtype)
conv = torch.fft.irfft(torch.fft.rfft(torch.tensor([1., 2, 3, 0, 0])) * torch.fft.rfft(torch.tensor([1., 1, 0, 0, 0])), n=5)
r["circ_conv"] = conv
report(**r)
