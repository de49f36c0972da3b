import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


net = det(Net(), seed=4)
x = data(30, 10, seed=5)
y = ints(3, 30, seed=6)
loader = torch.utils.data.DataLoader(list(zip(x, y)), batch_size=10)
optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
criterion = nn.CrossEntropyLoss()
running_loss = 0.0
scalars = []
for epoch in range(2):
    for i, (inputs, labels) in enumerate(loader):
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 3 == 2:
            scalars.append(('training loss', running_loss / 3, epoch * len(loader) + i))
            running_loss = 0.0
class_probs = []
class_label = []
with torch.no_grad():
    for inputs, labels in loader:
        output = net(inputs)
        class_probs_batch = [F.softmax(el, dim=0) for el in output]
        class_probs.append(class_probs_batch)
        class_label.append(labels)
test_probs = torch.cat([torch.stack(batch) for batch in class_probs])
test_label = torch.cat(class_label)
tensorboard_truth = test_label == 0
tensorboard_probs = test_probs[:, 0]
report(scalars=scalars, probs=tensorboard_probs[:6], truth=tensorboard_truth[:6], shape=test_probs.shape)
