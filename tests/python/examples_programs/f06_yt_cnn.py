# Source: yunjey/pytorch-tutorial tutorials/02-intermediate/convolutional_neural_network/main.py (MIT).
# Changed: MNIST/CIFAR-10 -> seeded NumPy images and labels (TensorDatasets), shuffle off (torch's draws), sizes and epochs small, det weights, printing every 2 steps (100).
# The conv biases feed BatchNorm: their gradient is 0 but for rounding, which Adam turns into +-lr
# steps, so the running means follow each library's rounding (not reported); lr 1e-4 keeps the eval close.
import numpy as np
import torch
import torch.nn as nn
# Device configuration
device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')

# Hyper parameters
num_epochs = 2
num_classes = 10
batch_size = 16
learning_rate = 0.0001  # (port) 0.001: see the note at the top

# MNIST dataset
train_dataset = torch.utils.data.TensorDataset(torch.from_numpy(np.random.RandomState(1).rand(48, 1, 28, 28).astype(np.float32)), ints(10, 48, seed=2))

test_dataset = torch.utils.data.TensorDataset(torch.from_numpy(np.random.RandomState(3).rand(32, 1, 28, 28).astype(np.float32)), ints(10, 32, seed=4))

# Data loader
train_loader = torch.utils.data.DataLoader(dataset=train_dataset,
                                           batch_size=batch_size, 
                                           shuffle=False)  # (det) shuffle=True

test_loader = torch.utils.data.DataLoader(dataset=test_dataset,
                                          batch_size=batch_size, 
                                          shuffle=False)

# Convolutional neural network (two convolutional layers)
class ConvNet(nn.Module):
    def __init__(self, num_classes=10):
        super(ConvNet, self).__init__()
        self.layer1 = nn.Sequential(
            nn.Conv2d(1, 16, kernel_size=5, stride=1, padding=2),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2))
        self.layer2 = nn.Sequential(
            nn.Conv2d(16, 32, kernel_size=5, stride=1, padding=2),
            nn.BatchNorm2d(32),
            nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2))
        self.fc = nn.Linear(7*7*32, num_classes)
        
    def forward(self, x):
        out = self.layer1(x)
        out = self.layer2(out)
        out = out.reshape(out.size(0), -1)
        out = self.fc(out)
        return out

model = det(ConvNet(num_classes), seed=1, scale=0.1).to(device)

# Loss and optimizer
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

# Train the model
total_step = len(train_loader)
for epoch in range(num_epochs):
    for i, (images, labels) in enumerate(train_loader):
        images = images.to(device)
        labels = labels.to(device)
        
        # Forward pass
        outputs = model(images)
        loss = criterion(outputs, labels)
        
        # Backward and optimize
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        
        if (i+1) % 2 == 0:
            print ('Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}' 
                   .format(epoch+1, num_epochs, i+1, total_step, loss.item()))

# Test the model
model.eval()  # eval mode (batchnorm uses moving mean/variance instead of mini-batch mean/variance)
with torch.no_grad():
    correct = 0
    total = 0
    for images, labels in test_loader:
        images = images.to(device)
        labels = labels.to(device)
        outputs = model(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()

    print('Test Accuracy of the model on the 10000 test images: {} %'.format(100 * correct / total))

# Save the model checkpoint
torch.save(model.state_dict(), 'model.ckpt')
report(fc=model.fc.weight[:2, :5], running_var=model.layer1[1].running_var, reloaded=sorted(torch.load('model.ckpt')))
