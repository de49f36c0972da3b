import torch

def nms(boxes, scores, iou_threshold):
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
        order = rest[(iou <= iou_threshold).nonzero().squeeze(1)]
    return torch.tensor(keep, dtype=torch.long)

def batched_nms(boxes, scores, idxs, thr):
    max_coordinate = boxes.max()
    offsets = idxs.to(boxes) * (max_coordinate + torch.tensor(1).to(boxes))
    return nms(boxes + offsets[:, None], scores, thr)

xy = torch.rand(0)
base = torch.tensor([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30], [21, 19, 29, 31], [0, 0, 9, 10], [50, 50, 52, 52.0]])
scores = torch.tensor([0.9, 0.8, 0.7, 0.95, 0.85, 0.1])
classes = torch.tensor([0, 0, 1, 1, 1, 0])
keep = nms(base, scores, 0.5)
bkeep = batched_nms(base, scores, classes, 0.5)
report(keep=keep, bkeep=bkeep, kept=base[keep], thr3=nms(base, scores, 0.3), empty=xy.shape)
