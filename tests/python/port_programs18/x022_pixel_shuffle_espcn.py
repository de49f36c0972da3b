import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.Tanh(), nn.Conv2d(8, 4, 3, padding=1), nn.PixelShuffle(2)))
x = data(1, 1, 3, 4, seed=2)
y = m(x)
ps = nn.PixelShuffle(2)(torch.arange(16.0).view(1, 4, 2, 2))
pu = nn.PixelUnshuffle(2)(ps)
loss = nn.functional.mse_loss(y, nn.functional.interpolate(x, scale_factor=2, mode="nearest"))
loss.backward()
report(y_shape=list(y.shape), ps=ps[0, 0], back=torch.equal(pu, torch.arange(16.0).view(1, 4, 2, 2)), loss=loss,
       g=m[0].weight.grad.flatten()[:4])
