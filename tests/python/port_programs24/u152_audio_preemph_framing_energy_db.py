import torch
import torch.nn.functional as F

x = torch.sin(torch.arange(800) * 0.07) * torch.linspace(0.1, 1.0, 800) + 0.01 * data(800)
pre = F.pad(x, (1, 0))[:-1]
emph = x - 0.95 * pre
frame_len, hop = 160, 80
n = 1 + (len(emph) - frame_len) // hop
idx = torch.arange(frame_len)[None, :] + hop * torch.arange(n)[:, None]
frames = emph[idx] * torch.hann_window(frame_len, periodic=False)
energy = frames.pow(2).sum(1)
db = 10 * torch.log10(energy.clamp(min=1e-10))
db_norm = db - db.max()
rms = frames.pow(2).mean(1).sqrt()
spec = torch.fft.rfft(frames, n=256).abs()
centroid = (spec * torch.fft.rfftfreq(256)).sum(1) / spec.sum(1)
rolloff = (spec.cumsum(1) >= 0.85 * spec.sum(1, keepdim=True)).float().argmax(1)
report(n=n, db_norm=db_norm, rms=rms, centroid=centroid, rolloff=rolloff, same=torch.allclose(frames[0], emph[:160] * torch.hann_window(160, periodic=False)))
