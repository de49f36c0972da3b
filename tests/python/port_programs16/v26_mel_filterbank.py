import math
import torch


def hz_to_mel(f):
    return 2595.0 * math.log10(1.0 + f / 700.0)


def mel_fbanks(n_freqs, f_min, f_max, n_mels, sr):
    all_freqs = torch.linspace(0, sr // 2, n_freqs)
    m_pts = torch.linspace(hz_to_mel(f_min), hz_to_mel(f_max), n_mels + 2)
    f_pts = 700.0 * (10 ** (m_pts / 2595.0) - 1.0)
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts.unsqueeze(0) - all_freqs.unsqueeze(1)
    down = (-1.0 * slopes[:, :-2]) / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    return torch.max(torch.zeros(1), torch.min(down, up))


sr, n_fft, hop = 8000, 64, 16
t = torch.arange(400) / sr
wave = torch.sin(2 * math.pi * 440 * t) + 0.3 * torch.sin(2 * math.pi * 1500 * t)
spec = torch.stft(wave, n_fft, hop_length=hop, window=torch.hann_window(n_fft), return_complex=True)
power = spec.abs().pow(2)
fb = mel_fbanks(n_fft // 2 + 1, 0.0, sr / 2, 8, sr)
mel = torch.matmul(power.transpose(-1, -2), fb).transpose(-1, -2)
logmel = torch.log(mel.clamp(min=1e-10))
db = 10 * torch.log10(mel.clamp(min=1e-10))
db = torch.max(db, db.max() - 80.0)
report(fb_sum=fb.sum(0), shape=list(mel.shape), logmel=logmel[:, 3], db_min=db.min().item(), peak=power[:, 5].argmax().item())
