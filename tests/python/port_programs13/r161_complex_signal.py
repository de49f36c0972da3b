import math
import torch
t = torch.linspace(0, 1, 64)
sig = torch.cos(2 * math.pi * 5 * t) + 0.5 * torch.sin(2 * math.pi * 12 * t)
spec = torch.fft.rfft(sig)
mag = spec.abs()
top = mag.topk(2).indices.sort().values
filt = spec.clone()
filt[10:] = 0
low = torch.fft.irfft(filt, n=64)
analytic = torch.fft.ifft(torch.fft.fft(sig) * torch.cat([torch.ones(1), 2 * torch.ones(31), torch.ones(1), torch.zeros(31)]))
env = analytic.abs()
z = torch.polar(torch.ones(3), torch.tensor([0.0, math.pi / 2, math.pi]))
report(top=top, low=low[:4], env=env[10:13], zr=z.real, zi=z.imag, cdt=str(spec.dtype), conj=torch.view_as_real(z.conj().resolve_conj())[1], prod=torch.view_as_real(z * z)[1])
