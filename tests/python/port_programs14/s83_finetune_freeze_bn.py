import torch
import torch.nn as nn

backbone = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
head = nn.Linear(4, 2)
det(backbone)
det(head, 1)
model = nn.Sequential(backbone, head)
for p in backbone.parameters():
    p.requires_grad = False


def freeze_bn(m):
    if isinstance(m, nn.BatchNorm2d):
        m.eval()


model.train()
model.apply(freeze_bn)
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.5)
x = data(4, 3, 6, 6)
y = torch.tensor([0, 1, 1, 0])
rm_before = backbone[1].running_mean.clone()
for _ in range(3):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
report(loss=loss, rm_same=torch.equal(rm_before, backbone[1].running_mean), bn_training=backbone[1].training, conv_grad=backbone[0].weight.grad is None,
       head=head.weight, ngroups=len(opt.param_groups[0]["params"]))
