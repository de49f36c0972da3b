import torch
import torch.nn as nn
import torch.nn.functional as F


def sigmoid_focal_loss(inputs, targets, alpha=0.25, gamma=2.0, reduction="mean"):
    p = torch.sigmoid(inputs)
    ce_loss = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce_loss * ((1 - p_t) ** gamma)
    if alpha >= 0:
        alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
        loss = alpha_t * loss
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    return loss


def box_iou(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[:, :2])
    rb = torch.min(a[:, None, 2:], b[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, :, 0] * wh[:, :, 1]
    return inter / (area_a[:, None] + area_b - inter)


def nms(boxes, scores, thr):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i.item())
        if order.numel() == 1:
            break
        ious = box_iou(boxes[i].unsqueeze(0), boxes[order[1:]]).squeeze(0)
        order = order[1:][ious <= thr]
    return torch.tensor(keep, dtype=torch.long)


head = det(nn.Conv2d(4, 3, 3, padding=1))
feat = data(2, 4, 5, 5)
logits = head(feat).permute(0, 2, 3, 1).reshape(-1, 3)
tgt = torch.zeros_like(logits)
tgt[torch.arange(0, logits.shape[0], 7), ints(3, (logits.shape[0] + 6) // 7)] = 1.0
fl = sigmoid_focal_loss(logits, tgt, reduction="sum") / tgt.sum().clamp(min=1.0)
fl.backward()
boxes = torch.tensor([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30], [0, 0, 9, 10], [21, 19, 31, 29.]])
scores = torch.tensor([0.9, 0.8, 0.7, 0.95, 0.3])
report(fl=fl, g=head.bias.grad, iou=box_iou(boxes, boxes)[0], keep=nms(boxes, scores, 0.5), npos=tgt.sum())
