import math
import torch

sr = 64
t = torch.arange(sr * 2) / sr
wave = torch.sin(2 * math.pi * 8 * t) + 0.5 * torch.sin(2 * math.pi * 20 * t)
win = torch.hann_window(32)
spec = torch.stft(wave, n_fft=32, hop_length=8, window=win, return_complex=True, center=True, pad_mode="reflect")
power = spec.abs() ** 2
recon = torch.istft(spec, n_fft=32, hop_length=8, window=win, length=wave.numel())
peak_bins = power.mean(-1).topk(2).indices.sort().values
mel_like = torch.log1p(power[:8].sum(0))
frames = wave.unfold(0, 32, 16)
energy = (frames ** 2).mean(-1)
zcr = ((frames[:, 1:] * frames[:, :-1]) < 0).float().mean(-1)
report(shape=spec.shape, peak_bins=peak_bins, recon_ok=torch.allclose(recon, wave, atol=1e-4), mel=mel_like[:4],
       energy=energy[:3], zcr=zcr[:3], win=win[:4], hamming=torch.hamming_window(5, periodic=False),
       dtype=str(spec.dtype), onesided=torch.stft(wave, 16, return_complex=True, onesided=False).shape)
