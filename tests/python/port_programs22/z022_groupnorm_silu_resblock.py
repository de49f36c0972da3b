import torch
import torch.nn as nn

class ResnetBlock(nn.Module):
    def __init__(self, dim, dim_out, time_emb_dim, groups=2):
        super().__init__()
        self.mlp = nn.Sequential(nn.SiLU(), nn.Linear(time_emb_dim, dim_out * 2))
        self.block1 = nn.Sequential(nn.Conv2d(dim, dim_out, 3, padding=1), nn.GroupNorm(groups, dim_out))
        self.block2 = nn.Sequential(nn.Conv2d(dim_out, dim_out, 3, padding=1), nn.GroupNorm(groups, dim_out), nn.SiLU())
        self.act = nn.SiLU()
        self.res_conv = nn.Conv2d(dim, dim_out, 1) if dim != dim_out else nn.Identity()

    def forward(self, x, time_emb):
        scale_shift = self.mlp(time_emb)
        scale_shift = scale_shift[:, :, None, None]  # rearrange 'b c -> b c 1 1'
        scale, shift = scale_shift.chunk(2, dim=1)
        h = self.block1(x)
        h = h * (scale + 1) + shift
        h = self.act(h)
        h = self.block2(h)
        return h + self.res_conv(x)

blk = det(ResnetBlock(3, 4, 6), seed=21)
x = data(2, 3, 5, 5, seed=22).requires_grad_()
temb = data(2, 6, seed=23)
y = blk(x, temb)
y.mean().backward()
report(y=y[1, 2], xg=x.grad[0, 0], gn_w=blk.block1[1].weight.grad, gn_b=blk.block2[1].bias.grad)
