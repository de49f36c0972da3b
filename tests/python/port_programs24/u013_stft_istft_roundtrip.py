import torch
import math

sr = 800
t = torch.arange(0, 400, dtype=torch.float32) / sr
wave = torch.sin(2 * math.pi * 50 * t) + 0.5 * torch.sin(2 * math.pi * 120 * t)
n_fft, hop = 64, 16
window = torch.hann_window(n_fft)
spec = torch.stft(wave, n_fft=n_fft, hop_length=hop, window=window, return_complex=True)
mag = spec.abs()
power = mag ** 2
peak_bins = power.mean(-1).topk(2).indices.sort().values
freqs = peak_bins.float() * sr / n_fft
recon = torch.istft(spec, n_fft=n_fft, hop_length=hop, window=window, length=wave.shape[0])
err = (recon - wave).abs().max()
db = 10 * torch.log10(power.clamp(min=1e-10))
spec_nc = torch.stft(wave, n_fft=n_fft, hop_length=hop, window=window, center=False, return_complex=True)
batch = torch.stft(torch.stack([wave, wave * 2]), 32, hop_length=8, return_complex=True, window=torch.hann_window(32))
report(shape=spec.shape, dtype=spec.dtype, freqs=freqs, err_small=bool(err < 1e-4), db_max=db.max().item(),
       mag_sum=mag.sum().item(), nc_shape=spec_nc.shape, batch_shape=batch.shape,
       ratio=(batch[1].abs().sum() / batch[0].abs().sum()).item(), phase0=spec[5, 3].angle().item())
