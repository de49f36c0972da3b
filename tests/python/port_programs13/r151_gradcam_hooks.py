import torch
import torch.nn as nn
import torch.nn.functional as F
net = det(nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 6, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(6, 3)))
acts, grads = {}, {}
def fwd(m, i, o):
    acts["a"] = o
    o.register_hook(lambda g: grads.__setitem__("g", g))
h = net[3].register_forward_hook(fwd)
x = data(1, 3, 8, 8)
out = net(x)
out[0, out.argmax()].backward()
w = grads["g"].mean(dim=(2, 3), keepdim=True)
cam = F.relu((w * acts["a"]).sum(1, keepdim=True))
cam = F.interpolate(cam, size=(16, 16), mode="bilinear", align_corners=False)
cam = (cam - cam.min()) / (cam.max() - cam.min() + 1e-8)
h.remove()
report(cam=cam[0, 0, ::4, ::4], w=w.flatten(), cls=out.argmax())
