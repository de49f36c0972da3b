import torch
from torch import nn, optim
from torch.nn import functional as F


class VAE(nn.Module):
    def __init__(self):
        super(VAE, self).__init__()
        self.fc1 = nn.Linear(64, 32)
        self.fc21 = nn.Linear(32, 4)
        self.fc22 = nn.Linear(32, 4)
        self.fc3 = nn.Linear(4, 32)
        self.fc4 = nn.Linear(32, 64)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar, eps):
        std = torch.exp(0.5 * logvar)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x, eps):
        mu, logvar = self.encode(x.view(-1, 64))
        z = self.reparameterize(mu, logvar, eps)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 64), reduction='sum')
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD


model = det(VAE(), scale=0.2)
optimizer = optim.Adam(model.parameters(), lr=1e-3)
x = torch.sigmoid(data(16, 1, 8, 8, seed=2) * 2)
log = []
for epoch in range(1, 3):
    model.train()
    train_loss = 0
    for batch_idx in range(2):
        data_ = x[batch_idx * 8:(batch_idx + 1) * 8]
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(data_, data(8, 4, seed=100 * epoch + batch_idx))
        loss = loss_function(recon_batch, data_, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
    log.append('====> Epoch: {} Average loss: {:.4f}'.format(epoch, train_loss / 16))
with torch.no_grad():
    sample = model.decode(data(4, 4, seed=7))
    comparison = torch.cat([x[:2].view(-1, 1, 8, 8), recon_batch.view(8, 1, 8, 8)[:2]])
report(log=log, sample=sample[0, :6], comparison=comparison.shape, mu=mu[0])
