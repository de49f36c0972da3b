import torch
import torch.nn as nn
S, B, C = 4, 2, 3
pred = data(2, S, S, B * 5 + C)
gt = torch.tensor([[0, 0.3, 0.4, 0.2, 0.3], [2, 0.8, 0.1, 0.1, 0.2]])
target = torch.zeros(2, S, S, 5 + C)
for n in range(2):
    for cls, x, y, w, h in gt.tolist():
        i, j = int(y * S), int(x * S)
        if target[n, i, j, 4] == 0:
            target[n, i, j, 4] = 1
            target[n, i, j, :4] = torch.tensor([x * S - j, y * S - i, w, h])
            target[n, i, j, 5 + int(cls)] = 1
obj = target[..., 4] == 1
boxes = pred[..., :B * 5].reshape(2, S, S, B, 5)
xy = boxes[..., :2].sigmoid()
wh = boxes[..., 2:4].exp()
def iou_cxcywh(a, b):
    a1, a2 = a[..., :2] - a[..., 2:] / 2, a[..., :2] + a[..., 2:] / 2
    b1, b2 = b[..., :2] - b[..., 2:] / 2, b[..., :2] + b[..., 2:] / 2
    inter = (torch.min(a2, b2) - torch.max(a1, b1)).clamp(0).prod(-1)
    return inter / (a[..., 2:].prod(-1) + b[..., 2:].prod(-1) - inter + 1e-6)
ious = iou_cxcywh(torch.cat([xy, wh], -1), target[..., None, :4])
best = ious.argmax(-1)
resp = nn.functional.one_hot(best, B).bool() & obj.unsqueeze(-1)
mse = nn.MSELoss(reduction="sum")
coord = mse(xy[resp], target[..., None, :2].expand(-1, -1, -1, B, -1)[resp]) + mse(wh[resp].sqrt(), target[..., None, 2:4].expand_as(wh)[resp].sqrt())
conf = boxes[..., 4].sigmoid()
obj_loss = mse(conf[resp], ious[resp].detach())
noobj = mse(conf[~resp], torch.zeros_like(conf[~resp]))
cls = nn.functional.binary_cross_entropy_with_logits(pred[..., B * 5:][obj], target[..., 5:][obj], reduction="sum")
report(nobj=int(obj.sum()), best=best[obj], coord=coord, obj_loss=obj_loss, noobj=noobj, cls=cls, resp=resp.nonzero())
