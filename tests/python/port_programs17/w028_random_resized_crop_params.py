import math
import torch

torch.manual_seed(0)
H, W = 20, 30
area = H * W
log_ratio = torch.log(torch.tensor((3.0 / 4.0, 4.0 / 3.0)))
found = 0
for _ in range(10):
    target_area = area * torch.empty(1).uniform_(0.08, 1.0).item()
    aspect_ratio = torch.exp(torch.empty(1).uniform_(log_ratio[0], log_ratio[1])).item()
    w = int(round(math.sqrt(target_area * aspect_ratio)))
    h = int(round(math.sqrt(target_area / aspect_ratio)))
    if 0 < w <= W and 0 < h <= H:
        i = torch.randint(0, H - h + 1, size=(1,)).item()
        j = torch.randint(0, W - w + 1, size=(1,)).item()
        assert 0 <= i <= H - h and 0 <= j <= W - w
        found += 1
u = torch.empty(1000).uniform_(0.08, 1.0)
report(lr=log_ratio, ok=found > 0, lo=bool(u.min() >= 0.08), hi=bool(u.max() < 1.0), dtype=u.dtype)
