import torch
def box_area(b):
    return (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
def box_iou(a, b):
    area1, area2 = box_area(a), box_area(b)
    lt = torch.max(a[:, None, :2], b[:, :2])
    rb = torch.min(a[:, None, 2:], b[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, :, 0] * wh[:, :, 1]
    return inter / (area1[:, None] + area2 - inter)
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
xy = (data(12, 2) * 10 + 20)
wh = data(12, 2, seed=4).abs() * 8 + 4
boxes = torch.cat([xy - wh / 2, xy + wh / 2], dim=1)
scores = torch.sigmoid(data(12, seed=5))
keep = nms(boxes, scores, 0.3)
def cxcywh_to_xyxy(x):
    cx, cy, w, h = x.unbind(-1)
    return torch.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim=-1)
def giou(a, b):
    iou = box_iou(a, b)
    lt = torch.min(a[:, None, :2], b[:, :2]); rb = torch.max(a[:, None, 2:], b[:, 2:])
    wh = (rb - lt).clamp(min=0)
    area = wh[..., 0] * wh[..., 1]
    union = box_area(a)[:, None] + box_area(b) - iou * box_area(a)[:, None] * 0
    return iou - (area - union) / area
g = giou(boxes[:3], boxes[3:6])
pred_d = data(4, 4, seed=7); tgt = data(4, 4, seed=8)
sl1 = torch.nn.functional.smooth_l1_loss(pred_d, tgt, beta=1.0 / 9, reduction="sum")
report(keep=keep, iou=box_iou(boxes[:4], boxes[:4]), g=g, conv=cxcywh_to_xyxy(torch.tensor([[10.0, 10, 4, 2]])), sl1=sl1)
