import torch

na, nc, ny, nx, stride = 3, 2, 3, 4, 8
anchors = torch.tensor([[10., 13.], [16., 30.], [33., 23.]])
p = data(1, na * (5 + nc), ny, nx)
p = p.view(1, na, 5 + nc, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
yv, xv = torch.meshgrid([torch.arange(ny), torch.arange(nx)], indexing="ij")
grid = torch.stack((xv, yv), 2).view(1, 1, ny, nx, 2).float()
anchor_grid = anchors.view(1, na, 1, 1, 2)
y = p.sigmoid()
xy = (y[..., 0:2] * 2 - 0.5 + grid) * stride
wh = (y[..., 2:4] * 2) ** 2 * anchor_grid
out = torch.cat((xy, wh, y[..., 4:]), -1).view(1, -1, 5 + nc)
conf = out[..., 4:5] * out[..., 5:]
best, cls = conf.max(-1)
keep = best[0] > 0.3
xyxy = torch.cat([out[0, :, :2] - out[0, :, 2:4] / 2, out[0, :, :2] + out[0, :, 2:4] / 2], 1)
report(out_shape=out.shape, xy=xy[0, 1, 2, 3], wh=wh[0, 2, 0, 0], n_keep=keep.sum().item(), cls=cls[0][keep][:5],
       xyxy=xyxy[keep][:2], grid=grid[0, 0, 1, :, 0])
