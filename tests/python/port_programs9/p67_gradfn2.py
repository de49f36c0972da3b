import torch
import torch.nn as nn
x = torch.ones(2, 3)
lin = nn.Linear(3, 4)
res = dict(lin2=lin(x), lin3=lin(x[None]), lin1=lin(x[0]), nobias=nn.Linear(3, 2, bias=False)(x), conv=nn.Conv2d(1, 2, 2)(torch.ones(1, 1, 3, 3)), conv1=nn.Conv1d(1, 2, 2)(torch.ones(1, 1, 3)),
           bn=nn.BatchNorm1d(3)(x), ln=nn.LayerNorm(3)(x), emb=nn.Embedding(3, 2)(torch.tensor([1])),
           drop=nn.Dropout(0.5).eval()(lin(x)), flat=nn.Flatten()(lin(x)[None]), seq_relu=nn.Sequential(nn.Linear(3, 2), nn.ReLU())(x), sm=nn.Softmax(1)(lin(x)), lsm=nn.LogSoftmax(1)(lin(x)),
           bce=nn.BCELoss()(torch.sigmoid(lin(x)), torch.ones(2, 4)), hub=nn.HuberLoss()(lin(x), x.sum(1, keepdim=True).expand(2, 4)), mha=nn.MultiheadAttention(4, 2)(lin(x), lin(x), lin(x))[0],  mp=nn.MaxPool2d(2)(torch.ones(1, 1, 2, 2, requires_grad=True)),  up=nn.Upsample(scale_factor=2)(torch.ones(1, 1, 2, 2, requires_grad=True)),
           tanh=nn.Tanh()(lin(x)), gelu=nn.GELU()(lin(x)), lrelu=nn.LeakyReLU()(lin(x)), elu=nn.ELU()(lin(x)), sig=nn.Sigmoid()(lin(x)), ident=nn.Identity()(lin(x)),
           gn=nn.GroupNorm(1, 4)(lin(x)[..., None]), ct=nn.ConvTranspose2d(1, 1, 2)(torch.ones(1, 1, 2, 2)), pix=nn.PixelShuffle(2)(torch.ones(1, 4, 1, 1, requires_grad=True)),
           msepr=str(nn.MSELoss()(lin(x), torch.zeros(2, 4))).split("grad_fn=")[1], sumpr=str(lin(x).sum()).split("grad_fn=")[1])
report(**{k: (v if isinstance(v, str) else type(v.grad_fn).__name__ if v.grad_fn is not None else None) for k, v in res.items()})
