import torch
import torch.nn.functional as F
feat = data(1, 3, 16, 16)
rois = torch.tensor([[0, 0.0, 0.0, 7.5, 7.5], [0, 4.0, 2.0, 15.0, 9.0], [0, 10.0, 10.0, 13.0, 15.0]])
scale = 0.5
outs = []
for r in rois:
    b = int(r[0])
    x1, y1, x2, y2 = (r[1:] * scale).round().long().tolist()
    crop = feat[b, :, y1:y2 + 1, x1:x2 + 1]
    outs.append(F.adaptive_max_pool2d(crop, (2, 2)))
pooled = torch.stack(outs)
avg = torch.stack([F.adaptive_avg_pool2d(feat[0, :, int(r[2] * scale):int(r[4] * scale) + 1, int(r[1] * scale):int(r[3] * scale) + 1], 3) for r in rois])
fg = feat.clone().requires_grad_()
torch.stack([F.adaptive_max_pool2d(fg[0, :, 0:4, 0:4], 2)]).sum().backward()
report(pooled=pooled[1, 0], shape=list(pooled.shape), avg=avg[2, 1], gnz=int((fg.grad != 0).sum()))
