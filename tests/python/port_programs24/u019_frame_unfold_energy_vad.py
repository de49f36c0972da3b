import torch
import math

sr = 1000
t = torch.arange(0, 1000) / sr
env = ((t > 0.3) & (t < 0.7)).float()
sig = env * torch.sin(2 * math.pi * 60 * t) + 0.01 * data(1000)
frames = sig.unfold(0, 100, 50)
energy = frames.pow(2).mean(-1)
voiced = energy > 0.1 * energy.max()
zcr = ((frames[:, 1:] * frames[:, :-1]) < 0).float().sum(-1)
starts = torch.nonzero(voiced.int().diff() == 1).squeeze(-1) + 1
ends = torch.nonzero(voiced.int().diff() == -1).squeeze(-1) + 1
pre = torch.cat([sig[:1], sig[1:] - 0.97 * sig[:-1]])
win = torch.hamming_window(100, periodic=False)
windowed = frames * win
spec = torch.fft.rfft(windowed, n=128)
peak = spec.abs()[voiced].mean(0).argmax()
report(n_frames=frames.shape[0], energy=energy, voiced=voiced, zcr=zcr[voiced], starts=starts, ends=ends,
       pre=pre[295:305], win_ends=win[[0, 49, 99]], peak_hz=(peak * sr / 128).item())
