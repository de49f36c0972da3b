import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(3)
        self.drop = nn.Dropout(0.5)
        self.sub = nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.1))
    def forward(self, x):
        return self.sub(self.drop(self.bn(x)))
n = Net()
n.eval()
modes = [m.training for m in n.modules()]
n.train()
n.sub.eval()
modes2 = [m.training for m in n.modules()]
n.train(False)
x = data(4, 3)
det(n)
y1, y2 = n(x), n(x)
n.requires_grad_(False)
frozen = all(not p.requires_grad for p in n.parameters())
n.sub[0].weight.requires_grad_(True)
trainable = [k for k, p in n.named_parameters() if p.requires_grad]
report(modes=modes, modes2=modes2, same=torch.equal(y1, y2), frozen=frozen, trainable=trainable, nbt=n.bn.num_batches_tracked, y=y1[0])
