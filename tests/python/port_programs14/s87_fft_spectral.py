import math
import torch

t = torch.arange(16, dtype=torch.float32) / 16
sig = torch.sin(2 * math.pi * 3 * t) + 0.5 * torch.cos(2 * math.pi * 5 * t)
spec = torch.fft.rfft(sig)
mag = spec.abs()
freqs = torch.fft.rfftfreq(16, d=1 / 16)
peak = freqs[mag.argmax()]
back = torch.fft.irfft(spec, n=16)
full = torch.fft.fft(sig)
shifted = torch.fft.fftshift(torch.fft.fftfreq(8))
img = data(4, 4)
f2 = torch.fft.fft2(img)
lowpass = spec.clone()
lowpass[4:] = 0
smooth = torch.fft.irfft(lowpass, n=16)
report(mag=mag, peak=peak, back=torch.allclose(back, sig, atol=1e-5), full_imag=full.imag[:4], shifted=shifted, f2=torch.view_as_real(f2)[0, :2],
       smooth=smooth[:4], dt=str(spec.dtype), angle=spec.angle()[3], ortho=torch.fft.fft(sig, norm="ortho").abs()[3])
