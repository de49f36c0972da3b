import torch
import torch.nn.functional as F
import math

sr = 4000
t = torch.arange(2000) / sr
x = torch.sin(2 * math.pi * 300 * t) * (1 + 0.5 * torch.sin(2 * math.pi * 3 * t))
spec = torch.stft(x, 256, hop_length=128, win_length=200, window=torch.hann_window(200), return_complex=True)
power = spec.abs() ** 2
logp = torch.log(power + 1e-3)
# deltas with a 5-tap regression filter as conv1d, replicate padding
N = 2
kernel = torch.arange(-N, N + 1, dtype=torch.float32) / (2 * sum(n * n for n in range(1, N + 1)))
padded = F.pad(logp.unsqueeze(0), (N, N), mode="replicate")
delta = F.conv1d(padded.transpose(0, 1).reshape(-1, 1, padded.shape[-1]), kernel.flip(0).view(1, 1, -1)).view(logp.shape)
# DCT-II matrix by hand (orthonormal)
n_mfcc, n_bins = 6, logp.shape[0]
k = torch.arange(n_mfcc).float().unsqueeze(1)
n = torch.arange(n_bins).float().unsqueeze(0)
dct = torch.cos(math.pi / n_bins * (n + 0.5) * k) * math.sqrt(2.0 / n_bins)
dct[0] *= 1 / math.sqrt(2.0)
mfcc = dct @ logp
report(spec_shape=spec.shape, delta=delta[10, :5], delta_shape=delta.shape, mfcc=mfcc[:, 3], orth=torch.allclose(dct @ dct.T, torch.eye(n_mfcc), atol=1e-5),
       peak_bin=power.mean(1).argmax().item())
