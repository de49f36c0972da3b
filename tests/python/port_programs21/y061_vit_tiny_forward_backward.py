import torch
import torch.nn as nn
# TOL 1e-3


class ViT(nn.Module):
    def __init__(self):
        super().__init__()
        self.patch = nn.Conv2d(3, 8, 4, 4)
        self.cls = nn.Parameter(torch.zeros(1, 1, 8))
        self.pos = nn.Parameter(torch.zeros(1, 5, 8))
        self.blocks = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, 0.0, batch_first=True, norm_first=True), 1)
        self.norm = nn.LayerNorm(8)
        self.head = nn.Linear(8, 4)

    def forward(self, x):
        x = self.patch(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.pos
        return self.head(self.norm(self.blocks(x))[:, 0])


m = det(ViT(), seed=3)
x = data(2, 3, 8, 8, seed=4)
out = m(x)
loss = nn.functional.cross_entropy(out, torch.tensor([1, 3]))
loss.backward()
report(out=out.detach(), cls_grad=m.cls.grad, pos_grad=m.pos.grad[0, 0], loss=loss.item())
