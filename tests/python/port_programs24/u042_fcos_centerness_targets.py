import torch

stride = 8
h, w = 4, 5
ys, xs = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
points = torch.stack([xs.flatten(), ys.flatten()], 1).float() * stride + stride // 2
gt = torch.tensor([[2.0, 3.0, 30.0, 25.0], [10.0, 0.0, 40.0, 30.0]])
l = points[:, None, 0] - gt[None, :, 0]
t = points[:, None, 1] - gt[None, :, 1]
r = gt[None, :, 2] - points[:, None, 0]
b = gt[None, :, 3] - points[:, None, 1]
ltrb = torch.stack([l, t, r, b], dim=2)
inside = ltrb.min(dim=2).values > 0
areas = ((gt[:, 2] - gt[:, 0]) * (gt[:, 3] - gt[:, 1]))[None].repeat(len(points), 1)
areas[~inside] = float("inf")
min_area, idx = areas.min(dim=1)
reg = ltrb[torch.arange(len(points)), idx]
pos = min_area != float("inf")
lr, tb = reg[:, [0, 2]], reg[:, [1, 3]]
centerness = torch.sqrt((lr.min(-1).values / lr.max(-1).values) * (tb.min(-1).values / tb.max(-1).values))
centerness = torch.where(pos, centerness, torch.zeros(()))
report(points=points[:6], inside=inside.sum(0), idx=idx.view(h, w), pos=pos.view(h, w), centerness=centerness.view(h, w),
       isinf=torch.isinf(min_area).sum().item())
