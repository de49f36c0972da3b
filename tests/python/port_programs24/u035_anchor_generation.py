import torch


def generate_anchors(sizes, ratios, stride, fh, fw):
    sizes = torch.as_tensor(sizes, dtype=torch.float32)
    ratios = torch.as_tensor(ratios, dtype=torch.float32)
    h_ratios = torch.sqrt(ratios)
    w_ratios = 1 / h_ratios
    ws = (w_ratios[:, None] * sizes[None, :]).view(-1)
    hs = (h_ratios[:, None] * sizes[None, :]).view(-1)
    base = torch.stack([-ws, -hs, ws, hs], dim=1) / 2
    base = base.round()
    shifts_x = torch.arange(0, fw, dtype=torch.int32) * stride
    shifts_y = torch.arange(0, fh, dtype=torch.int32) * stride
    sy, sx = torch.meshgrid(shifts_y, shifts_x, indexing="ij")
    sx, sy = sx.reshape(-1), sy.reshape(-1)
    shifts = torch.stack((sx, sy, sx, sy), dim=1)
    return (shifts.view(-1, 1, 4) + base.view(1, -1, 4)).reshape(-1, 4)


anchors = generate_anchors([32, 64], [0.5, 1.0, 2.0], 16, 3, 4)
areas = (anchors[:, 2] - anchors[:, 0]) * (anchors[:, 3] - anchors[:, 1])
centers = (anchors[:, :2] + anchors[:, 2:]) / 2
inside = ((anchors[:, 0] >= 0) & (anchors[:, 1] >= 0) & (anchors[:, 2] <= 64) & (anchors[:, 3] <= 48))
xy = torch.meshgrid(torch.arange(2), torch.arange(3), indexing="xy")
report(n=anchors.shape[0], dtype=anchors.dtype, first=anchors[:6], areas=areas[:6], centers=centers[::6], inside=inside.sum(),
       xy0=xy[0], xy1=xy[1])
