import torch
import torch.nn.functional as F

def roi_align_grid(feat, boxes, out_size):
    n = boxes.shape[0]
    H, W = feat.shape[-2:]
    x1, y1, x2, y2 = boxes.unbind(1)
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0] = (x2 - x1) / (W - 1)
    theta[:, 0, 2] = (x1 + x2 - W + 1) / (W - 1)
    theta[:, 1, 1] = (y2 - y1) / (H - 1)
    theta[:, 1, 2] = (y1 + y2 - H + 1) / (H - 1)
    grid = F.affine_grid(theta, (n, feat.shape[1], out_size, out_size), align_corners=True)
    return F.grid_sample(feat.expand(n, -1, -1, -1), grid, align_corners=True)

feat = torch.arange(1 * 2 * 6 * 8, dtype=torch.float32).view(1, 2, 6, 8).requires_grad_()
boxes = torch.tensor([[0.0, 0, 7, 5], [1, 1, 3, 4], [2.5, 0.5, 6, 2]])
crops = roi_align_grid(feat, boxes, 3)
crops.sum().backward()
report(c0=crops[0, 0], c1=crops[1, 1], c2=crops[2, 0], g=feat.grad[0, 0])
