import torch

x = data(3, 256)
win = torch.hann_window(64)
S = torch.stft(x, 64, hop_length=16, window=win, return_complex=True)
mag, phase = S.abs(), S.angle()
S2 = mag * torch.exp(1j * phase)
y = torch.istft(S2, 64, hop_length=16, window=win, length=256)
masked = S * (mag > mag.median()).float()
z = torch.istft(masked, 64, hop_length=16, window=win, length=256)
report(err=(y - x).abs().max().item() < 1e-4, energy_kept=(z.pow(2).sum(1) / x.pow(2).sum(1)), shape=S.shape, median=mag.median().item())
