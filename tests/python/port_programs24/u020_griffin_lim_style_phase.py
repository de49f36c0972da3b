import torch
import math

n_fft, hop = 32, 8
win = torch.hann_window(n_fft)
t = torch.arange(256).float()
wave = torch.sin(2 * math.pi * t / 16) + 0.3 * torch.cos(2 * math.pi * t / 5)
S = torch.stft(wave, n_fft, hop, window=win, return_complex=True)
mag = S.abs()
phase = torch.exp(1j * torch.zeros_like(mag))
errs = []
for i in range(8):
    y = torch.istft(mag * phase, n_fft, hop, window=win, length=256)
    S2 = torch.stft(y, n_fft, hop, window=win, return_complex=True)
    phase = S2 / S2.abs().clamp(min=1e-8)
    errs.append(((S2.abs() - mag).pow(2).mean()).item())
polar = torch.polar(mag, S.angle())
report(decreasing=all(a >= b - 1e-6 for a, b in zip(errs, errs[1:])), err0=errs[0], err_last=errs[-1], phase_dtype=phase.dtype,
       polar_close=torch.allclose(polar, S, atol=1e-5), real=S.real[3, :3], imag=S.imag[3, :3],
       view_real=torch.view_as_real(S).shape)
