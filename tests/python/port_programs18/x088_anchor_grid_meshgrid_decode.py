import torch

H, W, stride = 2, 3, 8
ys, xs = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
centers = torch.stack([(xs + 0.5) * stride, (ys + 0.5) * stride], -1).view(-1, 2).float()
sizes = torch.tensor([[16.0, 16.0], [32.0, 16.0]])
anchors = torch.cat([centers[:, None].expand(-1, 2, -1), sizes[None].expand(H * W, -1, -1)], -1).view(-1, 4)
deltas = data(anchors.shape[0], 4, seed=3) * 0.1
cx = anchors[:, 0] + deltas[:, 0] * anchors[:, 2]
cy = anchors[:, 1] + deltas[:, 1] * anchors[:, 3]
w = anchors[:, 2] * deltas[:, 2].exp()
h = anchors[:, 3] * deltas[:, 3].exp()
boxes = torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1).clamp(min=0, max=24)
xy = torch.meshgrid(torch.arange(2), torch.arange(3), indexing="xy")
report(anchors=anchors[:4], boxes=boxes[:3], xy0=xy[0], n=anchors.shape[0])
