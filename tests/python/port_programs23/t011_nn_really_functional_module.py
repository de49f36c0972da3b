import math
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

x_train = data(64, 784, seed=1) * 0.3
y_train = ints(10, 64, seed=2)
n, c = x_train.shape
loss_func = F.cross_entropy
bs = 16
lr = 0.5
epochs = 2


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.from_numpy((np.random.RandomState(5).standard_normal((784, 10)) / math.sqrt(784)).astype(np.float32)))
        self.bias = nn.Parameter(torch.zeros(10))

    def forward(self, xb):
        return xb @ self.weights + self.bias


model = Mnist_Logistic()
first = loss_func(model(x_train[:bs]), y_train[:bs])


def fit():
    for epoch in range(epochs):
        for i in range((n - 1) // bs + 1):
            start_i = i * bs
            end_i = start_i + bs
            xb = x_train[start_i:end_i]
            yb = y_train[start_i:end_i]
            pred = model(xb)
            loss = loss_func(pred, yb)
            loss.backward()
            with torch.no_grad():
                for p in model.parameters():
                    p -= p.grad * lr
                model.zero_grad()


fit()
after_module = loss_func(model(x_train[:bs]), y_train[:bs])


class Mnist_Logistic2(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(784, 10)

    def forward(self, xb):
        return self.lin(xb)


model = det(Mnist_Logistic2(), scale=0.03)
second = loss_func(model(x_train[:bs]), y_train[:bs])
fit()
after_linear = loss_func(model(x_train[:bs]), y_train[:bs])
grads = [p.grad for p in model.parameters()]
report(first=first, after_module=after_module, second=second, after_linear=after_linear,
       acc=accuracy(model(x_train), y_train), grads=grads)
