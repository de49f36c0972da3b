import torch

boxes = torch.tensor([[10.0, 10.0, 50.0, 40.0], [-5.0, 3.0, 20.0, 70.0], [30.0, 30.0, 31.0, 30.5], [0.0, 0.0, 100.0, 100.0]])
area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
clipped = torch.stack([boxes[:, 0].clamp(0, 64), boxes[:, 1].clamp(0, 48), boxes[:, 2].clamp(0, 64), boxes[:, 3].clamp(0, 48)], 1)
ws, hs = clipped[:, 2] - clipped[:, 0], clipped[:, 3] - clipped[:, 1]
keep = torch.where((ws >= 2) & (hs >= 2))[0]
cxcywh = torch.cat([(boxes[:, :2] + boxes[:, 2:]) / 2, boxes[:, 2:] - boxes[:, :2]], -1)
back = torch.cat([cxcywh[:, :2] - cxcywh[:, 2:] / 2, cxcywh[:, :2] + cxcywh[:, 2:] / 2], -1)
scale = torch.tensor([0.5, 0.25]).repeat(2)
resized = boxes * scale
flipped = boxes.clone()
flipped[:, [0, 2]] = 64 - boxes[:, [2, 0]]
inter_lt = torch.max(boxes[:, None, :2], boxes[None, :, :2])
inter_rb = torch.min(boxes[:, None, 2:], boxes[None, :, 2:])
inter = (inter_rb - inter_lt).clamp(min=0).prod(-1)
iou = inter / (area[:, None] + area[None] - inter)
iou.fill_diagonal_(0)
report(area=area, clipped=clipped, keep=keep, cxcywh=cxcywh, same=torch.allclose(back, boxes), resized=resized[1], flipped=flipped, iou_max=iou.max(1))
