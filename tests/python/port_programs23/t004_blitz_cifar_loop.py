import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
import numpy as np


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


classes = ('plane', 'car', 'bird', 'cat', 'deer', 'dog', 'frog', 'horse', 'ship', 'truck')
images = data(16, 3, 32, 32, seed=5)
labels = ints(10, 16, seed=6)
dataset = torch.utils.data.TensorDataset(images, labels)
trainloader = torch.utils.data.DataLoader(dataset, batch_size=4, shuffle=False, num_workers=0)
net = det(Net(), scale=0.1)
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
log = []
for epoch in range(2):
    running_loss = 0.0
    for i, data_ in enumerate(trainloader, 0):
        inputs, labels_ = data_
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels_)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 2 == 1:
            log.append(f'[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 2:.3f}')
            running_loss = 0.0
PATH = './cifar_net.pth'
torch.save(net.state_dict(), PATH)
net2 = Net()
net2.load_state_dict(torch.load(PATH, weights_only=True))
outputs = net2(images[:4])
_, predicted = torch.max(outputs, 1)
names = ' '.join(f'{classes[predicted[j]]:5s}' for j in range(4))
correct = 0
total = 0
correct_pred = {classname: 0 for classname in classes}
total_pred = {classname: 0 for classname in classes}
with torch.no_grad():
    for images_, labels_ in trainloader:
        outputs = net2(images_)
        _, predicted = torch.max(outputs.data, 1)
        total += labels_.size(0)
        correct += (predicted == labels_).sum().item()
        for label, prediction in zip(labels_, predicted):
            if label == prediction:
                correct_pred[classes[label]] += 1
            total_pred[classes[label]] += 1
report(log=log, names=names, acc=100 * correct // total, correct_pred=correct_pred, total_pred=total_pred, outputs=outputs)
