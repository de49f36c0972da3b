import torch

boxes = torch.tensor([[0, 0, 4, 4], [1, 1, 5, 5], [0.5, 0, 4, 4.5], [10, 10, 14, 14], [11, 11, 15, 15], [20, 0, 22, 3]], dtype=torch.float32)
scores = torch.tensor([[0.9, 0.05], [0.8, 0.6], [0.7, 0.1], [0.2, 0.95], [0.1, 0.9], [0.3, 0.31]])
def iou(a, b):
    lt = torch.maximum(a[:, None, :2], b[None, :, :2])
    rb = torch.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area = lambda x: (x[:, 2:] - x[:, :2]).prod(-1)
    return inter / (area(a)[:, None] + area(b)[None] - inter)
def nms_matrix(b, s, thr):
    order = s.argsort(descending=True)
    b = b[order]
    ious = iou(b, b).triu(diagonal=1)
    keep = torch.ones(len(order), dtype=torch.bool)
    for i in range(len(order)):
        if keep[i]:
            keep &= ~(ious[i] > thr)
    return order[keep]
out = []
for c in range(scores.shape[1]):
    m = scores[:, c] > 0.25
    idx = torch.nonzero(m).flatten()
    k = idx[nms_matrix(boxes[idx], scores[idx, c], 0.5)]
    out.append(torch.stack([k, torch.full_like(k, c)], 1))
dets = torch.cat(out)
final_scores = scores[dets[:, 0], dets[:, 1]]
top = final_scores.topk(min(3, len(final_scores)))
report(dets=dets, final_scores=final_scores, top=top.indices, iou=iou(boxes[:3], boxes[:3]), maxmin=torch.maximum(torch.tensor([1, 5]), torch.tensor([3, 2])))
