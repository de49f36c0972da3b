import torch
import torch.nn as nn
import torch.nn.functional as F


class LeNet5(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = F.max_pool2d(torch.tanh(self.conv1(x)), 2)
        x = F.avg_pool2d(torch.tanh(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        return self.fc2(F.relu(self.fc1(x)))


model = det(LeNet5(), scale=0.1)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, dampening=0.1, weight_decay=5e-4)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
x, y = data(8, 1, 28, 28), ints(10, 8)
hist = []
for epoch in range(4):
    model.train()
    out = model(x)
    loss = F.nll_loss(F.log_softmax(out, dim=1), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    correct = out.argmax(dim=1, keepdim=True).eq(y.view_as(out.argmax(dim=1, keepdim=True))).sum().item()
    hist.append((round(loss.item(), 5), correct, sched.get_last_lr()[0]))
report(hist=hist, buf=opt.state[model.fc2.bias]["momentum_buffer"][:3])
