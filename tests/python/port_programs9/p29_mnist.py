import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR
class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.dropout1 = nn.Dropout(0.0)
        self.dropout2 = nn.Dropout(0.0)
        self.fc1 = nn.Linear(8 * 5 * 5, 16)
        self.fc2 = nn.Linear(16, 10)
    def forward(self, x):
        x = self.conv1(x); x = F.relu(x)
        x = self.conv2(x); x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x); x = F.relu(x)
        x = self.dropout2(x)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)
model = det(Net(), 0, 0.3)
optimizer = optim.Adadelta(model.parameters(), lr=1.0)
scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
images = (data(8, 1, 14, 14) * 0.3081 + 0.1307)
targets = ints(10, 8)
dataset = torch.utils.data.TensorDataset(images, targets)
loader = torch.utils.data.DataLoader(dataset, batch_size=4)
log = []
for epoch in range(1, 3):
    model.train()
    for batch_idx, (d, target) in enumerate(loader):
        optimizer.zero_grad()
        output = model(d)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        log.append('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(epoch, batch_idx * len(d), len(loader.dataset), 100. * batch_idx / len(loader), loss.item()))
    model.eval()
    test_loss = 0; correct = 0
    with torch.no_grad():
        for d, target in loader:
            output = model(d)
            test_loss += F.nll_loss(output, target, reduction='sum').item()
            pred = output.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum().item()
    test_loss /= len(loader.dataset)
    log.append('Test set: Average loss: {:.4f}, Accuracy: {}/{}'.format(test_loss, correct, len(loader.dataset)))
    scheduler.step()
report(log=log, lr=optimizer.param_groups[0]['lr'])
