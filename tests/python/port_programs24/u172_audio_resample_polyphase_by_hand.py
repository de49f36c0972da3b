import torch
import torch.nn.functional as F
import math

sr_in, up, down = 300, 2, 3
t = torch.arange(90) / sr_in
x = torch.sin(2 * math.pi * 13 * t)
zero_stuffed = torch.zeros(len(x) * up)
zero_stuffed[::up] = x
taps = 31
n = torch.arange(taps) - taps // 2
cutoff = 0.5 / max(up, down)
h = 2 * cutoff * torch.sinc(2 * cutoff * n.float()) * torch.kaiser_window(taps, periodic=False, beta=6.0) * up
y = F.conv1d(zero_stuffed.view(1, 1, -1), h.flip(0).view(1, 1, -1), padding=taps // 2).view(-1)[::down]
ref = torch.sin(2 * math.pi * 13 * torch.arange(len(y)) / (sr_in * up / down))
err = (y[10:-10] - ref[10:-10]).abs().max()
report(n_out=len(y), h_sum=h.sum().item(), err_small=bool(err < 0.05), y=y[20:24])
