import torch
import torch.nn as nn
import torch.nn.functional as F
net = det(nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 6, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(6, 5)), 0, 0.4)
net.eval()
acts, grads = {}, {}
target_layer = net[2]
def fwd_hook(module, inp, out):
    acts["v"] = out.detach()
def bwd_hook(module, grad_in, grad_out):
    grads["v"] = grad_out[0].detach()
h1 = target_layer.register_forward_hook(fwd_hook)
h2 = target_layer.register_full_backward_hook(bwd_hook)
x = data(1, 3, 8, 8).requires_grad_()
out = net(x)
cls = out.argmax(dim=1).item()
net.zero_grad()
out[0, cls].backward()
weights = grads["v"].mean(dim=(2, 3), keepdim=True)
cam = F.relu((weights * acts["v"]).sum(dim=1, keepdim=True))
cam = F.interpolate(cam, size=(16, 16), mode="bilinear", align_corners=False)
cam = (cam - cam.min()) / (cam.max() - cam.min() + 1e-8)
saliency, _ = x.grad.data.abs().max(dim=1)
h1.remove(); h2.remove()
x2 = data(1, 3, 8, 8, seed=3)
baseline = torch.zeros_like(x2)
steps = 8
alphas = torch.linspace(0, 1, steps).view(-1, 1, 1, 1)
path = (baseline + alphas * (x2 - baseline)).requires_grad_(True)
o = net(path)[:, cls].sum()
g, = torch.autograd.grad(o, path)
ig = (x2 - baseline) * g.mean(0, keepdim=True)
report(cls=cls, cam=cam[0, 0, ::4, ::4], sal=saliency[0, :3], ig=ig.sum(), gshape=list(grads["v"].shape))
