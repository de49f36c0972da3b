import torch
import torch.nn.functional as F
s = data(16, seed=3)
k = torch.tensor([0.25, 0.5, 0.25])
n = 16 + 3 - 1
full = torch.fft.irfft(torch.fft.rfft(s, n) * torch.fft.rfft(k, n), n)
ref = F.conv1d(s.view(1, 1, -1), k.flip(0).view(1, 1, -1), padding=2).flatten()
report(full=full, ref=ref, close=torch.allclose(full, ref, atol=1e-5), psd=(torch.fft.rfft(s).abs() ** 2)[:4])
