import torch


def box_area(b):
    return (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])


def generalized_box_iou(b1, b2):
    a1, a2 = box_area(b1), box_area(b2)
    lt = torch.max(b1[:, None, :2], b2[:, :2])
    rb = torch.min(b1[:, None, 2:], b2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    union = a1[:, None] + a2 - inter
    iou = inter / union
    lt2 = torch.min(b1[:, None, :2], b2[:, :2])
    rb2 = torch.max(b1[:, None, 2:], b2[:, 2:])
    area = (rb2 - lt2).clamp(min=0).prod(-1)
    return iou - (area - union) / area, iou


def box_cxcywh_to_xyxy(x):
    cx, cy, w, h = x.unbind(-1)
    return torch.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim=-1)


pred = torch.tensor([[0.5, 0.5, 0.4, 0.4], [0.3, 0.6, 0.2, 0.5], [0.7, 0.2, 0.3, 0.3]], requires_grad=True)
tgt = torch.tensor([[0.5, 0.45, 0.5, 0.3], [0.8, 0.8, 0.2, 0.2]])
giou, iou = generalized_box_iou(box_cxcywh_to_xyxy(pred), box_cxcywh_to_xyxy(tgt))
cost = -giou + torch.cdist(pred, tgt, p=1)
match = cost.argmin(0)
loss = (1 - torch.diag(giou[match])).mean()
loss.backward()
report(giou=giou.detach(), iou=iou.detach(), match=match, loss=loss.item(), grad=pred.grad)
