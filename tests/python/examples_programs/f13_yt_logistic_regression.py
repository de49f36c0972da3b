# Source: yunjey/pytorch-tutorial tutorials/01-basics/logistic_regression/main.py (MIT).
# Changed: MNIST/CIFAR-10 -> seeded NumPy images and labels (TensorDatasets), shuffle off (torch's draws), sizes and epochs small, det weights, printing every 2 steps (100), lr 0.05 (0.001: at 9 steps nothing moves).
import numpy as np
import torch
import torch.nn as nn
# Hyper-parameters 
input_size = 28 * 28    # 784
num_classes = 10
num_epochs = 3
batch_size = 16
learning_rate = 0.05

# MNIST dataset (images and labels)
train_dataset = torch.utils.data.TensorDataset(torch.from_numpy(np.random.RandomState(1).rand(48, 1, 28, 28).astype(np.float32)), ints(10, 48, seed=2))

test_dataset = torch.utils.data.TensorDataset(torch.from_numpy(np.random.RandomState(3).rand(32, 1, 28, 28).astype(np.float32)), ints(10, 32, seed=4))

# Data loader (input pipeline)
train_loader = torch.utils.data.DataLoader(dataset=train_dataset, 
                                           batch_size=batch_size, 
                                           shuffle=False)  # (det) shuffle=True

test_loader = torch.utils.data.DataLoader(dataset=test_dataset, 
                                          batch_size=batch_size, 
                                          shuffle=False)

# Logistic regression model
model = det(nn.Linear(input_size, num_classes), seed=1, scale=0.05)

# Loss and optimizer
# nn.CrossEntropyLoss() computes softmax internally
criterion = nn.CrossEntropyLoss()  
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)  

# Train the model
total_step = len(train_loader)
for epoch in range(num_epochs):
    for i, (images, labels) in enumerate(train_loader):
        # Reshape images to (batch_size, input_size)
        images = images.reshape(-1, input_size)
        
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
        images = images.reshape(-1, input_size)
        outputs = model(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum()

    print('Accuracy of the model on the 10000 test images: {} %'.format(100 * correct / total))

# Save the model checkpoint
torch.save(model.state_dict(), 'model.ckpt')

report(w=next(iter(model.parameters()))[:2, :5], saved=sorted(torch.load('model.ckpt')))
