import torch
import torch.nn.functional as F

feat = data(1, 3, 8, 8)
rois = torch.tensor([[0, 0, 4, 4], [2, 1, 8, 7], [3, 3, 5, 8]])
pooled = []
for x1, y1, x2, y2 in rois.tolist():
    crop = feat[:, :, y1:y2, x1:x2]
    pooled.append(F.adaptive_max_pool2d(crop, (2, 2)))
pooled = torch.cat(pooled)
avg = torch.stack([F.adaptive_avg_pool2d(feat[0, :, y1:y2, x1:x2], 3) for x1, y1, x2, y2 in rois.tolist()])
# crop-and-resize with grid_sample
theta = torch.tensor([[[0.5, 0.0, -0.25], [0.0, 0.5, 0.25]]])
grid = F.affine_grid(theta, (1, 3, 4, 4), align_corners=False)
crop = F.grid_sample(feat, grid, mode="bilinear", align_corners=False)
mp, idx = F.adaptive_max_pool2d(feat[:, :, :5, :7], (2, 3), return_indices=True)
report(pooled=pooled.sum((2, 3)), avg_shape=avg.shape, avg=avg[1, 0], crop=crop[0, 0], idx=idx[0, 0], mp=mp[0, 1])
