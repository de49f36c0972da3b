import math
import torch
import torch.nn as nn
import torch.nn.functional as F
def hz_to_mel(f): return 2595.0 * math.log10(1.0 + f / 700.0)
def mel_to_hz(m): return 700.0 * (10 ** (m / 2595.0) - 1.0)
def mel_filterbank(n_mels, n_fft, sr, fmin=0.0, fmax=None):
    fmax = fmax or sr / 2
    mels = torch.linspace(hz_to_mel(fmin), hz_to_mel(fmax), n_mels + 2)
    hz = 700.0 * (10 ** (mels / 2595.0) - 1.0)
    bins = torch.floor((n_fft + 1) * hz / sr).long()
    fb = torch.zeros(n_mels, n_fft // 2 + 1)
    for m in range(1, n_mels + 1):
        l, c, r = bins[m - 1].item(), bins[m].item(), bins[m + 1].item()
        for k in range(l, c):
            fb[m - 1, k] = (k - l) / max(c - l, 1)
        for k in range(c, r):
            fb[m - 1, k] = (r - k) / max(r - c, 1)
    return fb
sr, n_fft, hop = 8000, 128, 32
t = torch.arange(0, 2048) / sr
wave = torch.sin(2 * math.pi * 440 * t) + 0.5 * torch.sin(2 * math.pi * 1200 * t) + 0.05 * data(2048)
spec = torch.stft(wave, n_fft=n_fft, hop_length=hop, window=torch.hann_window(n_fft), return_complex=True)
power = spec.abs() ** 2
fb = mel_filterbank(20, n_fft, sr)
mel = fb @ power
logmel = torch.log(mel + 1e-6)
db = 10 * torch.log10(torch.clamp(mel, min=1e-10))
db = torch.max(db, db.max() - 80.0)
net = det(nn.Sequential(nn.Conv1d(20, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(8, 3)))
feats = (logmel - logmel.mean(dim=1, keepdim=True)) / (logmel.std(dim=1, keepdim=True) + 1e-5)
out = net(feats.unsqueeze(0))
report(spec_shape=list(spec.shape), dtype=spec.dtype, peak=power.sum(1).argmax().item(), fbsum=fb.sum(1), mel=mel[:, 3], db=db[:5, 5], out=out)
