import math
import numpy as np
import torch

x_train = data(64, 784, seed=1) * 0.3
y_train = ints(10, 64, seed=2)
x_valid = data(32, 784, seed=3) * 0.3
y_valid = ints(10, 32, seed=4)
n, c = x_train.shape
weights = torch.from_numpy((np.random.RandomState(5).standard_normal((784, 10)) / math.sqrt(784)).astype(np.float32))
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


bs = 16
xb = x_train[0:bs]
preds = model(xb)
first_pred = preds[0]


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


loss_func = nll
yb = y_train[0:bs]
first_loss = loss_func(preds, yb)


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


first_acc = accuracy(preds, yb)
lr = 0.5
epochs = 2
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
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
report(n=n, c=c, first_pred=first_pred, first_loss=first_loss, first_acc=first_acc,
       final_loss=loss_func(model(xb), yb), final_acc=accuracy(model(xb), yb), bias=bias,
       valid=loss_func(model(x_valid), y_valid), preds_shape=preds.shape, w_leaf=weights.is_leaf)
