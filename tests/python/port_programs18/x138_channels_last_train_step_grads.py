import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Conv2d(2, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                      nn.Linear(4, 3))).to(memory_format=torch.channels_last)
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
x = data(2, 2, 5, 5, seed=3).contiguous(memory_format=torch.channels_last)
y = torch.tensor([0, 2])
for _ in range(2):
    loss = nn.functional.cross_entropy(m(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
report(loss=loss, w=m[0].weight[0, 0], bn=m[1].running_var, out_cl=m[0](x).is_contiguous(memory_format=torch.channels_last))
