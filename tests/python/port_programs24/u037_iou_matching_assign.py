import torch


def box_iou(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[:, :2])
    rb = torch.min(a[:, None, 2:], b[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, :, 0] * wh[:, :, 1]
    return inter / (area_a[:, None] + area_b - inter)


gt = torch.tensor([[0., 0., 10., 10.], [20., 20., 30., 32.]])
labels = torch.tensor([3, 7])
anchors = torch.tensor([[0., 0., 8., 8.], [1., 1., 11., 11.], [18., 18., 28., 28.], [40., 40., 50., 50.],
                        [21., 22., 31., 30.], [5., 5., 15., 15.]])
iou = box_iou(gt, anchors)
matched_vals, matches = iou.max(dim=0)
below = matched_vals < 0.3
between = (matched_vals >= 0.3) & (matched_vals < 0.5)
matches[below] = -1
matches[between] = -2
# allow low-quality matches: each gt gets its best anchor
best_per_gt, _ = iou.max(dim=1)
gt_idx, anchor_idx = torch.where(iou == best_per_gt[:, None])
matches[anchor_idx] = gt_idx
cls_targets = torch.where(matches >= 0, labels[matches.clamp(min=0)], torch.zeros_like(matches))
cls_targets[matches == -2] = -1
pos = torch.nonzero(matches >= 0).flatten()
report(iou=iou, matches=matches, cls=cls_targets, pos=pos, where=torch.where(iou > 0.4))
