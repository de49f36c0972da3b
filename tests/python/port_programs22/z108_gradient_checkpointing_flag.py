import torch
import torch.nn as nn
import torch.utils.checkpoint

class Layer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.ln = nn.LayerNorm(d)

    def forward(self, x, scale):
        return x + scale * self.ff(self.ln(x))

class Encoder(nn.Module):
    def __init__(self, d=6, n=3):
        super().__init__()
        self.layers = nn.ModuleList([Layer(d) for _ in range(n)])
        self.gradient_checkpointing = False

    def forward(self, x):
        for layer in self.layers:
            if self.gradient_checkpointing and self.training:
                x = torch.utils.checkpoint.checkpoint(layer.__call__, x, 0.5, use_reentrant=False)
            else:
                x = layer(x, 0.5)
        return x

def grads(ckpt, reentrant=None):
    m = det(Encoder(), seed=155)
    m.gradient_checkpointing = ckpt
    x = data(2, 4, 6, seed=156).requires_grad_()
    y = m(x)
    y.pow(2).sum().backward()
    return y, x.grad, m.layers[0].ff[0].weight.grad

y0, gx0, gw0 = grads(False)
y1, gx1, gw1 = grads(True)
m = det(Encoder(), seed=155)
x = data(2, 4, 6, seed=156).requires_grad_()
seq = torch.utils.checkpoint.checkpoint_sequential(nn.Sequential(*[nn.Linear(6, 6) for _ in range(4)]), 2, x, use_reentrant=False)
report(y=y1[1, 2], same_y=bool(torch.allclose(y0, y1)), same_gx=bool(torch.allclose(gx0, gx1, atol=1e-6)),
       same_gw=bool(torch.allclose(gw0, gw1, atol=1e-6)), gw=gw1[:2], seq_shape=seq.shape)
