import torch

sr = 8000
x = torch.sin(2 * torch.pi * 440 * torch.arange(256) / sr) + 0.3 * data(256, seed=2)
S = torch.stft(x, 64, 32, window=torch.hann_window(64), return_complex=True).abs()
freqs = torch.linspace(0, sr // 2, steps=1 + 64 // 2)
centroid = (freqs[:, None] * S).sum(0) / S.sum(0)
cum = torch.cumsum(S, dim=0)
roll = (cum < 0.85 * cum[-1:]).sum(0)
flat = torch.exp(torch.log(S + 1e-10).mean(0)) / S.mean(0)
zcr = ((x[:-1] * x[1:]) < 0).float().mean()
report(centroid=centroid, roll=roll, flat=flat, zcr=zcr, peak=freqs[S.mean(1).argmax()])
# TOL 5e-4
