import torch


def nms(boxes, scores, thr):
    x1, y1, x2, y2 = boxes.unbind(1)
    areas = (x2 - x1) * (y2 - y1)
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0].item()
        keep.append(i)
        if order.numel() == 1:
            break
        rest = order[1:]
        xx1 = x1[rest].clamp(min=x1[i].item())
        yy1 = y1[rest].clamp(min=y1[i].item())
        xx2 = x2[rest].clamp(max=x2[i].item())
        yy2 = y2[rest].clamp(max=y2[i].item())
        inter = (xx2 - xx1).clamp(min=0) * (yy2 - yy1).clamp(min=0)
        iou = inter / (areas[i] + areas[rest] - inter)
        order = rest[iou <= thr]
    return torch.tensor(keep, dtype=torch.long)


def batched_nms(boxes, scores, idxs, thr):
    offsets = idxs.to(boxes) * (boxes.max() + 1)
    return nms(boxes + offsets[:, None], scores, thr)


boxes = torch.tensor([[0, 0, 10, 10], [1, 1, 11, 11], [50, 50, 60, 60], [0, 0, 9, 10], [51, 49, 61, 59], [100, 100, 110, 120]], dtype=torch.float)
scores = torch.tensor([0.9, 0.8, 0.75, 0.95, 0.3, 0.05])
cls = torch.tensor([0, 0, 1, 1, 1, 0])
keep = nms(boxes, scores, 0.5)
bkeep = batched_nms(boxes, scores, cls, 0.5)
conf_keep = keep[scores[keep] > 0.1]
topk = scores.topk(3)
report(keep=keep, bkeep=bkeep, conf_keep=conf_keep, topk_idx=topk.indices, kept_boxes=boxes[keep[:2]])
