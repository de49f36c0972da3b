import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = nn.Conv2d(10, 20, kernel_size=5)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, 10)
        self.localization = nn.Sequential(
            nn.Conv2d(1, 8, kernel_size=7),
            nn.MaxPool2d(2, stride=2),
            nn.ReLU(True),
            nn.Conv2d(8, 10, kernel_size=5),
            nn.MaxPool2d(2, stride=2),
            nn.ReLU(True)
        )
        self.fc_loc = nn.Sequential(
            nn.Linear(10 * 3 * 3, 32),
            nn.ReLU(True),
            nn.Linear(32, 3 * 2)
        )
        self.fc_loc[2].weight.data.zero_()
        self.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))

    def stn(self, x):
        xs = self.localization(x)
        xs = xs.view(-1, 10 * 3 * 3)
        theta = self.fc_loc(xs)
        theta = theta.view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        x = F.grid_sample(x, grid, align_corners=False)
        return x

    def forward(self, x):
        x = self.stn(x)
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 320)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)


model = Net()
fc_loc_w, fc_loc_b = model.fc_loc[2].weight.clone(), model.fc_loc[2].bias.clone()
det(model, scale=0.1)
with torch.no_grad():
    model.fc_loc[2].weight.zero_()
    model.fc_loc[2].bias.copy_(torch.tensor([0.9, 0.1, 0.05, -0.05, 0.9, 0.03], dtype=torch.float))
optimizer = optim.SGD(model.parameters(), lr=0.001)
x = data(4, 1, 28, 28, seed=3)
target = ints(10, 4, seed=4)
model.eval()
losses = []
for _ in range(4):
    optimizer.zero_grad()
    output = model(x)
    loss = F.nll_loss(output, target)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
with torch.no_grad():
    test_loss = F.nll_loss(model(x), target, reduction='sum').item()
    pred = model(x).max(1, keepdim=True)[1]
    correct = pred.eq(target.view_as(pred)).sum().item()
    transformed = model.stn(x)
report(losses=losses, test_loss=test_loss, correct=correct, tr=transformed[0, 0, 10, :6], w0=fc_loc_w.abs().sum(), b0=fc_loc_b)
