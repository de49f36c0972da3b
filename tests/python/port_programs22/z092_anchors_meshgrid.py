import torch

def grid_anchors(grid_size, stride, sizes):
    gh, gw = grid_size
    shifts_x = torch.arange(0, gw, dtype=torch.int32) * stride
    shifts_y = torch.arange(0, gh, dtype=torch.int32) * stride
    shift_y, shift_x = torch.meshgrid(shifts_y, shifts_x, indexing="ij")
    shift_x = shift_x.reshape(-1)
    shift_y = shift_y.reshape(-1)
    shifts = torch.stack((shift_x, shift_y, shift_x, shift_y), dim=1)
    scales = torch.as_tensor(sizes, dtype=torch.float32)
    ratios = torch.as_tensor([0.5, 1.0, 2.0])
    h_ratios = torch.sqrt(ratios)
    w_ratios = 1 / h_ratios
    ws = (w_ratios[:, None] * scales[None, :]).view(-1)
    hs = (h_ratios[:, None] * scales[None, :]).view(-1)
    base = torch.stack([-ws, -hs, ws, hs], dim=1) / 2
    base = base.round()
    return (shifts.view(-1, 1, 4) + base.view(1, -1, 4)).reshape(-1, 4), base

anchors, base = grid_anchors((2, 3), 8, (16, 32))
xs, ys = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")
centers = torch.stack([xs, ys], -1).float() + 0.5
report(n=anchors.shape, base=base, first=anchors[:7], last=anchors[-1], dtype=anchors.dtype, xs=xs, centers=centers[1])
