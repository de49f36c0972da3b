import torch
import math


def hz_to_mel(f):
    return 2595.0 * torch.log10(1.0 + f / 700.0)


def mel_to_hz(m):
    return 700.0 * (10 ** (m / 2595.0) - 1.0)


def mel_filterbank(n_freqs, n_mels, sr, f_min=0.0, f_max=None):
    f_max = f_max or sr / 2
    all_freqs = torch.linspace(0, sr // 2, n_freqs)
    m_pts = torch.linspace(hz_to_mel(torch.tensor(f_min)).item(), hz_to_mel(torch.tensor(f_max)).item(), n_mels + 2)
    f_pts = mel_to_hz(m_pts)
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts.unsqueeze(0) - all_freqs.unsqueeze(1)
    down = (-1.0 * slopes[:, :-2]) / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    fb = torch.max(torch.zeros(1), torch.min(down, up))
    return fb


sr, n_fft = 8000, 128
fb = mel_filterbank(n_fft // 2 + 1, 10, sr)
t = torch.arange(1024) / sr
wave = torch.sin(2 * math.pi * 440 * t) * torch.exp(-t * 3)
spec = torch.stft(wave, n_fft, hop_length=64, window=torch.hann_window(n_fft), return_complex=True).abs().pow(2)
mel = torch.matmul(spec.transpose(-1, -2), fb).transpose(-1, -2)
log_mel = torch.log(mel + 1e-6)
mfcc_dct = torch.cos(math.pi / 10 * (torch.arange(10).float() + 0.5).unsqueeze(0) * torch.arange(5).float().unsqueeze(1))
mfcc = mfcc_dct @ log_mel
report(fb_shape=fb.shape, fb_colsum=fb.sum(0), fb_nonzero=(fb > 0).sum(0), mel_shape=mel.shape, log_mel_mean=log_mel.mean(1),
       mfcc_first=mfcc[:, 0], peak_mel=mel.mean(1).argmax().item())
