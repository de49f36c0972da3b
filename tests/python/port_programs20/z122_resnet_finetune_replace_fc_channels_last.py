import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        return torch.relu(x + self.bn2(self.conv2(torch.relu(self.bn1(self.conv1(x))))))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU())
        self.layer1 = Block(4)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(4, 1000)

    def forward(self, x):
        return self.fc(torch.flatten(self.avgpool(self.layer1(self.stem(x))), 1))


model = det(Net(), scale=0.3)
for p in model.parameters():
    p.requires_grad = False
num_ftrs = model.fc.in_features
model.fc = nn.Linear(num_ftrs, 3)
det(model.fc, seed=5)
model = model.to(memory_format=torch.channels_last)
opt = torch.optim.SGD(model.fc.parameters(), lr=0.01, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.1)
x = data(4, 3, 6, 6).to(memory_format=torch.channels_last)
y = ints(3, 4)
hist = []
for epoch in range(2):
    model.train()
    opt.zero_grad()
    with torch.set_grad_enabled(True):
        out = model(x)
        _, preds = torch.max(out, 1)
        loss = nn.functional.cross_entropy(out, y)
        loss.backward()
        opt.step()
    sched.step()
    hist.append([loss.item(), torch.sum(preds == y.data).item()])
report(hist=hist, frozen=model.stem[0].weight.grad is None, cl=x.is_contiguous(memory_format=torch.channels_last), fc=model.fc.weight,
       rm=model.layer1.bn1.running_mean)
