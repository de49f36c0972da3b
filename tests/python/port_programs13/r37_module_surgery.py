import torch
import torch.nn as nn
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.act = nn.ReLU(inplace=True)
    def forward(self, x):
        return self.act(self.bn(self.conv(x)))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 4, 1)
        self.blocks = nn.Sequential(Block(), Block())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(4, 10)
    def forward(self, x):
        return self.fc(self.pool(self.blocks(self.stem(x))).flatten(1))
def replace_act(module):
    for name, child in module.named_children():
        if isinstance(child, nn.ReLU):
            setattr(module, name, nn.SiLU())
        else:
            replace_act(child)
net = det(Net())
replace_act(net)
net.fc = nn.Linear(net.fc.in_features, 3)
det(net.fc, 5)
for name, p in net.named_parameters():
    if not name.startswith("fc") and "blocks.1" not in name:
        p.requires_grad = False
trainable = sum(p.numel() for p in net.parameters() if p.requires_grad)
names = [n for n, m in net.named_modules() if isinstance(m, nn.SiLU)]
net.blocks[0].bn = nn.Identity()
del net.blocks[1].act
net.blocks[1].act = nn.Tanh()
net.blocks.append(nn.Dropout(0.0))
net.blocks.insert(0, nn.Identity())
x = data(2, 3, 5, 5)
net.eval()
out = net(x)
sd = net.state_dict()
get = net.get_submodule("blocks.2.conv")
report(trainable=trainable, names=names, out=out, keys=[k for k in sd if "blocks" in k][:6], nblocks=len(net.blocks), sub=type(get).__name__,
       repr_=repr(net.blocks[2]), params=len(list(net.parameters())), childs=[n for n, _ in net.named_children()])
