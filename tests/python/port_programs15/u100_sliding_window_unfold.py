import torch
import torch.nn.functional as F

series = torch.arange(12.)
windows = series.unfold(0, 4, 2)
moving_avg = F.avg_pool1d(series.view(1, 1, -1), 3, stride=1).flatten()
conv_avg = F.conv1d(series.view(1, 1, -1), torch.full((1, 1, 3), 1 / 3)).flatten()
ema = torch.zeros_like(series)
ema[0] = series[0]
for i in range(1, len(series)):
    ema[i] = 0.3 * series[i] + 0.7 * ema[i - 1]
img = torch.arange(16.).view(1, 1, 4, 4)
patches = F.unfold(img, kernel_size=2, stride=2)
patches2 = img.unfold(2, 2, 2).unfold(3, 2, 2).reshape(1, 1, 4, 4).permute(0, 1, 2, 3)
w = torch.ones(3, 1, 2, 2)
conv = F.conv2d(img, w)
unfold_conv = (w.view(3, -1) @ F.unfold(img, 2)).view(1, 3, 3, 3)
cs = torch.cumsum(series, 0)
rolling_sum = cs[3:] - torch.cat([torch.zeros(1), cs[:-4]])
lagged = torch.stack([series.roll(k) for k in range(3)], 1)[2:]
report(windows=windows, ma=moving_avg, same=torch.allclose(moving_avg, conv_avg), ema=ema[-3:], patches=patches,
       pshape=patches2.shape, unfold_conv=torch.allclose(conv, unfold_conv), rolling=rolling_sum, lagged=lagged[:2])
