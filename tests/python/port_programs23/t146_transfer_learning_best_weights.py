import copy
import torch
import torch.nn as nn
import torch.optim as optim
from torch.optim import lr_scheduler


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(8, 100)

    def forward(self, x):
        return self.fc(self.features(x))


model_ft = det(Backbone(), seed=1)
num_ftrs = model_ft.fc.in_features
model_ft.fc = nn.Linear(num_ftrs, 2)
det(model_ft.fc, seed=2)
criterion = nn.CrossEntropyLoss()
optimizer_ft = optim.SGD(model_ft.parameters(), lr=0.01, momentum=0.9)
exp_lr_scheduler = lr_scheduler.StepLR(optimizer_ft, step_size=2, gamma=0.1)
dataloaders = {'train': [(data(4, 3, 6, 6, seed=10 + i), ints(2, 4, seed=20 + i)) for i in range(2)],
               'val': [(data(4, 3, 6, 6, seed=30), ints(2, 4, seed=31))]}
dataset_sizes = {'train': 8, 'val': 4}


def train_model(model, criterion, optimizer, scheduler, num_epochs=3):
    best_model_wts = copy.deepcopy(model.state_dict())
    best_acc = 0.0
    log = []
    for epoch in range(num_epochs):
        for phase in ['train', 'val']:
            if phase == 'train':
                model.train()
            else:
                model.eval()
            running_loss = 0.0
            running_corrects = 0
            for inputs, labels in dataloaders[phase]:
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == 'train'):
                    outputs = model(inputs)
                    _, preds = torch.max(outputs, 1)
                    loss = criterion(outputs, labels)
                    if phase == 'train':
                        loss.backward()
                        optimizer.step()
                running_loss += loss.item() * inputs.size(0)
                running_corrects += torch.sum(preds == labels.data)
            if phase == 'train':
                scheduler.step()
            epoch_loss = running_loss / dataset_sizes[phase]
            epoch_acc = running_corrects.double() / dataset_sizes[phase]
            log.append(f'{phase} Loss: {epoch_loss:.4f} Acc: {epoch_acc:.4f}')
            if phase == 'val' and epoch_acc > best_acc:
                best_acc = epoch_acc
                best_model_wts = copy.deepcopy(model.state_dict())
    model.load_state_dict(best_model_wts)
    return model, log, best_acc


model_ft, log, best_acc = train_model(model_ft, criterion, optimizer_ft, exp_lr_scheduler)
report(log=log, best=best_acc, lr=optimizer_ft.param_groups[0]['lr'], rm=model_ft.features[1].running_mean)
