import torch

def box_area(boxes):
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])

def box_iou(boxes1, boxes2):
    area1, area2 = box_area(boxes1), box_area(boxes2)
    lt = torch.max(boxes1[:, None, :2], boxes2[:, :2])
    rb = torch.min(boxes1[:, None, 2:], boxes2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, :, 0] * wh[:, :, 1]
    union = area1[:, None] + area2 - inter
    return inter / union, union

def generalized_box_iou(boxes1, boxes2):
    iou, union = box_iou(boxes1, boxes2)
    lt = torch.min(boxes1[:, None, :2], boxes2[:, :2])
    rb = torch.max(boxes1[:, None, 2:], boxes2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    area = wh[:, :, 0] * wh[:, :, 1]
    return iou - (area - union) / area

def box_cxcywh_to_xyxy(x):
    x_c, y_c, w, h = x.unbind(-1)
    return torch.stack([(x_c - 0.5 * w), (y_c - 0.5 * h), (x_c + 0.5 * w), (y_c + 0.5 * h)], dim=-1)

def box_xyxy_to_cxcywh(x):
    x0, y0, x1, y1 = x.unbind(-1)
    return torch.stack([(x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0), (y1 - y0)], dim=-1)

a = torch.tensor([[0.0, 0, 2, 2], [1, 1, 3, 4], [5, 5, 6, 6]])
b = box_cxcywh_to_xyxy(torch.tensor([[1.0, 1, 2, 2], [2, 2, 1, 3], [10, 10, 1, 1], [0.5, 0.5, 1, 1]]))
iou, _ = box_iou(a, b)
g = generalized_box_iou(a, b)
p = b.clone().requires_grad_()
(1 - torch.diag(generalized_box_iou(a, p[:3]))).sum().backward()
report(b=b, iou=iou, giou=g, back=box_xyxy_to_cxcywh(b), grad=p.grad, best=iou.max(dim=1))
