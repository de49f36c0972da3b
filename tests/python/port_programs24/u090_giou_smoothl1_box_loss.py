import torch
import torch.nn.functional as F


def giou_loss(p, g, eps=1e-7):
    x1 = torch.max(p[:, 0], g[:, 0]); y1 = torch.max(p[:, 1], g[:, 1])
    x2 = torch.min(p[:, 2], g[:, 2]); y2 = torch.min(p[:, 3], g[:, 3])
    inter = (x2 - x1).clamp(0) * (y2 - y1).clamp(0)
    ap = (p[:, 2] - p[:, 0]) * (p[:, 3] - p[:, 1])
    ag = (g[:, 2] - g[:, 0]) * (g[:, 3] - g[:, 1])
    union = ap + ag - inter + eps
    iou = inter / union
    cx1 = torch.min(p[:, 0], g[:, 0]); cy1 = torch.min(p[:, 1], g[:, 1])
    cx2 = torch.max(p[:, 2], g[:, 2]); cy2 = torch.max(p[:, 3], g[:, 3])
    c = (cx2 - cx1) * (cy2 - cy1) + eps
    return 1 - (iou - (c - union) / c)


pred = torch.tensor([[0., 0., 4., 4.], [2., 2., 6., 7.], [10., 10., 11., 11.]], requires_grad=True)
gt = torch.tensor([[1., 1., 5., 5.], [2., 2., 6., 7.], [0., 0., 2., 2.]])
gl = giou_loss(pred, gt)
gl.mean().backward()
sl = F.smooth_l1_loss(pred.detach(), gt, beta=1.0 / 9, reduction="none").sum(1)
hl = F.huber_loss(pred.detach(), gt, delta=2.0)
l1 = F.l1_loss(pred.detach(), gt, reduction="sum")
report(gl=gl, grad=pred.grad, sl=sl, hl=hl.item(), l1=l1.item())
