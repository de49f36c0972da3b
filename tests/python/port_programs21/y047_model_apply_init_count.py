import torch
import torch.nn as nn


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.01)
        if m.bias is not None:
            nn.init.zeros_(m.bias)
    elif isinstance(m, nn.Conv2d):
        nn.init.ones_(m.weight)
    elif isinstance(m, nn.BatchNorm2d):
        m.weight.data.fill_(2.0)
        m.bias.data.zero_()


model = nn.Sequential(nn.Conv2d(1, 2, 3, bias=False), nn.BatchNorm2d(2), nn.Flatten(), nn.Linear(8, 3),
                      nn.Linear(3, 1, bias=False))
ret = model.apply(init_weights)
total = sum(p.numel() for p in model.parameters())
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
model[0].requires_grad_(False)
trainable2 = sum(p.numel() for p in model.parameters() if p.requires_grad)
buffers = sum(b.numel() for b in model.buffers())
out = model(torch.ones(2, 1, 4, 4))
report(total=total, trainable=trainable, trainable2=trainable2, buffers=buffers, same=ret is model, out=out.detach(),
       names=[n for n, p in model.named_parameters() if p.requires_grad], bn=model[1].weight.detach(),
       nmods=len(list(model.modules())), children=len(list(model.children())))
