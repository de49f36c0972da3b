import torch
import torch.nn.functional as F
from torch import nn
from torch import optim
from torch.utils.data import TensorDataset, DataLoader

x_train = data(64, 784, seed=1) * 0.3
y_train = ints(10, 64, seed=2)
x_valid = data(32, 784, seed=3) * 0.3
y_valid = ints(10, 32, seed=4)
loss_func = F.cross_entropy
bs = 16
lr = 0.5
epochs = 2


class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(784, 10)

    def forward(self, xb):
        return self.lin(xb)


def get_model():
    model = det(Mnist_Logistic(), scale=0.03)
    return model, optim.SGD(model.parameters(), lr=lr)


model, opt = get_model()
train_ds = TensorDataset(x_train, y_train)
train_dl = DataLoader(train_ds, batch_size=bs)
valid_ds = TensorDataset(x_valid, y_valid)
valid_dl = DataLoader(valid_ds, batch_size=bs * 2)
valid_losses = []
for epoch in range(epochs):
    model.train()
    for xb, yb in train_dl:
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    model.eval()
    with torch.no_grad():
        valid_loss = sum(loss_func(model(xb), yb) for xb, yb in valid_dl)
    valid_losses.append(valid_loss / len(valid_dl))
item = train_ds[3]
report(valid=valid_losses, n_batches=len(train_dl), len_ds=len(train_ds), item_shapes=[item[0].shape, item[1].shape],
       item_y=item[1], training=model.training, w=model.lin.weight[:2, :5])
