import math
import torch
import torch.nn.functional as F


def get_params(h, w, scale, ratio, g):
    area = h * w
    log_ratio = torch.log(torch.tensor(ratio))
    for _ in range(10):
        target_area = area * torch.empty(1).uniform_(scale[0], scale[1], generator=g).item()
        aspect = torch.exp(torch.empty(1).uniform_(log_ratio[0], log_ratio[1], generator=g)).item()
        cw = int(round(math.sqrt(target_area * aspect)))
        ch = int(round(math.sqrt(target_area / aspect)))
        if 0 < cw <= w and 0 < ch <= h:
            i = torch.randint(0, h - ch + 1, size=(1,), generator=g).item()
            j = torch.randint(0, w - cw + 1, size=(1,), generator=g).item()
            return i, j, ch, cw
    return 0, 0, h, w


g = torch.Generator().manual_seed(3)
img = data(3, 16, 16, seed=1)
i, j, h, w = get_params(16, 16, (0.08, 1.0), (3 / 4, 4 / 3), g)
crop = img[:, i:i + h, j:j + w]
out = F.interpolate(crop[None], size=(8, 8), mode="bilinear", align_corners=False, antialias=False)[0]
report(valid=0 <= i <= 16 - h and 0 <= j <= 16 - w and h > 0 and w > 0, out_shape=list(out.shape))
