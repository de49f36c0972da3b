import torch

n = 256
t = torch.arange(n, dtype=torch.float32)
clean = torch.sin(2 * torch.pi * 10 * t / n)
noisy = clean + 0.3 * data(n, seed=171)
win = torch.hann_window(64)
S = torch.stft(noisy, 64, hop_length=16, window=win, return_complex=True)
mag, phase = S.abs(), S.angle()
mask = (mag > mag.mean(dim=1, keepdim=True) * 2).float()
den = torch.istft(torch.polar(mag * mask, phase), 64, hop_length=16, window=win, length=n)
err_noisy = (noisy - clean).pow(2).mean()
err_den = (den - clean).pow(2).mean()
Sc = torch.stft(noisy, 64, hop_length=16, window=win, return_complex=True, center=False)
report(shape=S.shape, kept=mask.sum(), err_noisy=err_noisy, err_den=err_den, better=bool(err_den < err_noisy), den=den[100:106],
       sc_shape=Sc.shape, pi=torch.pi)
