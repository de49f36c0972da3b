import torch
import torch.nn.functional as F
def make_anchors(fh, fw, stride, sizes=(8, 16), ratios=(0.5, 1.0, 2.0)):
    scales = torch.as_tensor(sizes, dtype=torch.float32)
    ar = torch.as_tensor(ratios)
    h_r = torch.sqrt(ar); w_r = 1 / h_r
    ws = (w_r[:, None] * scales[None, :]).view(-1)
    hs = (h_r[:, None] * scales[None, :]).view(-1)
    base = torch.stack([-ws, -hs, ws, hs], dim=1) / 2
    base = base.round()
    sx = torch.arange(0, fw, dtype=torch.int32) * stride
    sy = torch.arange(0, fh, dtype=torch.int32) * stride
    yy, xx = torch.meshgrid(sy, sx, indexing="ij")
    shifts = torch.stack((xx.reshape(-1), yy.reshape(-1), xx.reshape(-1), yy.reshape(-1)), dim=1)
    return (shifts.view(-1, 1, 4) + base.view(1, -1, 4)).reshape(-1, 4)
def sigmoid_focal_loss(inputs, targets, alpha=0.25, gamma=2, reduction="none"):
    p = torch.sigmoid(inputs)
    ce = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce * ((1 - p_t) ** gamma)
    if alpha >= 0:
        loss = (alpha * targets + (1 - alpha) * (1 - targets)) * loss
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss
anchors = make_anchors(3, 4, 8)
logits = data(anchors.size(0), 3)
logits.requires_grad_(True)
targets = torch.zeros_like(logits)
targets[torch.arange(0, anchors.size(0), 5), ints(3, (anchors.size(0) + 4) // 5)] = 1.0
fl = sigmoid_focal_loss(logits, targets, reduction="sum") / targets.sum().clamp(min=1)
fl.backward()
report(n=anchors.size(0), dtype=anchors.dtype, a=anchors[:7], fl=fl, g=logits.grad[:2])
