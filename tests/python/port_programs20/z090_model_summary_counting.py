import torch
import torch.nn as nn

model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.Flatten(), nn.LazyLinear(5))
x = torch.zeros(2, 3, 6, 6)
shapes = []
hooks = [m.register_forward_hook(lambda m, i, o: shapes.append((type(m).__name__, list(o.shape)))) for m in model]
model(x)
for h in hooks:
    h.remove()
total = sum(p.numel() for p in model.parameters())
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
bufs = sum(b.numel() for b in model.buffers())
size_mb = sum(p.numel() * p.element_size() for p in model.parameters()) / 1024 ** 2
report(shapes=[list(s) for s in shapes], total=total, trainable=trainable, bufs=bufs, size=round(size_mb, 6),
       lazy=type(model[4]).__name__, inf=model[4].in_features)
