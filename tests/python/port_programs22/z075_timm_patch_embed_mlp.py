import torch
import torch.nn as nn

class PatchEmbed(nn.Module):
    def __init__(self, img_size=8, patch_size=4, in_chans=3, embed_dim=6, flatten=True):
        super().__init__()
        self.grid_size = (img_size // patch_size, img_size // patch_size)
        self.num_patches = self.grid_size[0] * self.grid_size[1]
        self.flatten = flatten
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.norm = nn.LayerNorm(embed_dim)

    def forward(self, x):
        x = self.proj(x)
        if self.flatten:
            x = x.flatten(2).transpose(1, 2)
        return self.norm(x)

class Mlp(nn.Module):
    def __init__(self, in_features, hidden_features=None, out_features=None, act_layer=nn.GELU, drop=0.0):
        super().__init__()
        out_features = out_features or in_features
        hidden_features = hidden_features or in_features
        self.fc1 = nn.Linear(in_features, hidden_features)
        self.act = act_layer()
        self.drop1 = nn.Dropout(drop)
        self.fc2 = nn.Linear(hidden_features, out_features)

    def forward(self, x):
        return self.fc2(self.drop1(self.act(self.fc1(x))))

pe = det(PatchEmbed(), seed=93)
cls_token = nn.Parameter(torch.zeros(1, 1, 6))
pos_embed = nn.Parameter(data(1, 5, 6, seed=94) * 0.02)
mlp = det(Mlp(6, 12, act_layer=lambda: nn.GELU(approximate="tanh")), seed=95)
x = data(2, 3, 8, 8, seed=96)
t = pe(x)
t = torch.cat((cls_token.expand(t.shape[0], -1, -1), t), dim=1) + pos_embed
y = mlp(t)
y[:, 0].sum().backward()
report(t_shape=t.shape, y=y[1, 0], np=pe.num_patches, cls_grad=cls_token.grad, pos_grad=pos_embed.grad[0, 1],
       proj_grad=pe.proj.bias.grad)
