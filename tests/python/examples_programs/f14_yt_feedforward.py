# Source: yunjey/pytorch-tutorial tutorials/01-basics/feedforward_neural_network/main.py (MIT).
# Changed: MNIST/CIFAR-10 -> seeded NumPy images and labels (TensorDatasets), shuffle off (torch's draws), sizes and epochs small, det weights, printing every 2 steps (100), lr 0.05 (0.001: at 9 steps nothing moves).
import numpy as np
import torch
import torch.nn as nn
# Device configuration
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')

# Hyper-parameters 
input_size = 784
hidden_size = 32
num_classes = 10
num_epochs = 3
batch_size = 16
learning_rate = 0.05

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

# Fully connected neural network with one hidden layer
class NeuralNet(nn.Module):
    def __init__(self, input_size, hidden_size, num_classes):
        super(NeuralNet, self).__init__()
        self.fc1 = nn.Linear(input_size, hidden_size) 
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(hidden_size, num_classes)  
    
    def forward(self, x):
        out = self.fc1(x)
        out = self.relu(out)
        out = self.fc2(out)
        return out

model = det(NeuralNet(input_size, hidden_size, num_classes), seed=1, scale=0.05).to(device)

# Loss and optimizer
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)  

# Train the model
total_step = len(train_loader)
for epoch in range(num_epochs):
    for i, (images, labels) in enumerate(train_loader):  
        # Move tensors to the configured device
        images = images.reshape(-1, 28*28).to(device)
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
# In test phase, we don't need to compute gradients (for memory efficiency)
with torch.no_grad():
    correct = 0
    total = 0
    for images, labels in test_loader:
        images = images.reshape(-1, 28*28).to(device)
        labels = labels.to(device)
        outputs = model(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()

    print('Accuracy of the network on the 10000 test images: {} %'.format(100 * correct / total))

# Save the model checkpoint
torch.save(model.state_dict(), 'model.ckpt')
report(w=next(iter(model.parameters()))[:2, :5], saved=sorted(torch.load('model.ckpt')))
