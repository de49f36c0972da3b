import torch
import torch.nn.functional as F
import math

sr = 400
t = torch.arange(200) / sr
x = torch.sin(2 * math.pi * 25 * t)
# autocorrelation pitch estimate via conv1d
ac = F.conv1d(x.view(1, 1, -1), x.view(1, 1, -1), padding=199).view(-1)[199:]
lag_min = 5
lag = ac[lag_min:100].argmax() + lag_min
f0 = sr / lag.float()
# linear resample by interpolate
up = F.interpolate(x.view(1, 1, -1), scale_factor=2, mode="linear", align_corners=False).view(-1)
down = F.avg_pool1d(x.view(1, 1, -1), 2).view(-1)
# FIR lowpass (windowed sinc) by hand
taps = 21
n = torch.arange(taps) - taps // 2
fc = 0.25
h = 2 * fc * torch.sinc(2 * fc * n.float())
h_check = torch.where(n == 0, torch.tensor(2 * fc), torch.sin(2 * math.pi * fc * n) / (math.pi * n))
h = h * torch.hamming_window(taps, periodic=False)
h = h / h.sum()
y = F.conv1d(x.view(1, 1, -1), h.flip(0).view(1, 1, -1), padding=taps // 2).view(-1)
report(lag=lag.item(), f0=f0.item(), up_shape=up.shape, up=up[:6], down=down[:4], h=h[8:13], y=y[50:54], h_check=h_check[8:13])
