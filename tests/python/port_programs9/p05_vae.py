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
model = det(VAE())
optimizer = optim.Adam(model.parameters(), lr=1e-3)
x = torch.sigmoid(data(8, 1, 8, 8))
train_loss = 0
hist = []
for epoch in range(4):
    model.train()
    optimizer.zero_grad()
    eps = data(8, 4, seed=20 + epoch)
    recon_batch, mu, logvar = model(x, eps)
    loss = loss_function(recon_batch, x, mu, logvar)
    loss.backward()
    train_loss += loss.item()
    optimizer.step()
    hist.append(loss.item() / len(x))
model.eval()
with torch.no_grad():
    sample = model.decode(data(2, 4, seed=99)).cpu()
    comparison = torch.cat([x[:2].view(2, 1, 8, 8), recon_batch.view(8, 1, 8, 8)[:2]])
report(hist=hist, train_loss=train_loss, sample=sample.view(2, 1, 8, 8)[:, :, 0], comp=list(comparison.shape))
