import torch
import torch.nn as nn


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.1)
        if m.bias is not None:
            nn.init.zeros_(m.bias)
    elif isinstance(m, nn.LayerNorm):
        m.weight.data.fill_(2.0)


net = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Sequential(nn.Linear(4, 2, bias=False)))
net.apply(init_weights)
x = data(2, 3, seed=1)
report(y=net(x), names=[n for n, _ in net.named_parameters(prefix="model")], mods=[n for n, _ in net.named_children()],
       bufs=list(net.named_buffers()), nmods=len(list(net.modules())), get=net.get_submodule("2.0").weight, gp=net.get_parameter("1.bias"),
       dt=net.double()[0].weight.dtype, half=net.to(torch.float16)[1].weight.dtype, cnt=sum(p.numel() for p in net.parameters() if p.requires_grad))
