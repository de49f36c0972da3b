# Source: yunjey/pytorch-tutorial tutorials/03-advanced/variational_autoencoder/main.py (MIT).
# Changed: MNIST -> seeded NumPy images, shuffle off, randn/randn_like -> seeded NumPy normals, save_image
# (torchvision) -> a stand-in keeping each image's sum, sizes and epochs small (VAE's h_dim/z_dim passed), det weights, printing every 2 steps (10).
import os
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
# Device configuration
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')

# Create a directory if not exists
sample_dir = 'samples'

_saved = []
def save_image(tensor, path):
    """(port) torchvision.utils.save_image -> the image's sum and name, kept"""
    _saved.append((os.path.basename(path), round(float(tensor.sum()), 3)))
_normal = np.random.RandomState(7)  # (det) torch.randn's draws
if not os.path.exists(sample_dir):
    os.makedirs(sample_dir)

# Hyper-parameters
image_size = 784
h_dim = 32
z_dim = 8
num_epochs = 3
batch_size = 16
learning_rate = 1e-3

# MNIST dataset
dataset = torch.utils.data.TensorDataset(torch.from_numpy(np.random.RandomState(1).rand(64, 1, 28, 28).astype(np.float32)), ints(10, 64, seed=2))

# Data loader
data_loader = torch.utils.data.DataLoader(dataset=dataset,
                                          batch_size=batch_size, 
                                          shuffle=False)  # (det) shuffle=True


# VAE model
class VAE(nn.Module):
    def __init__(self, image_size=784, h_dim=400, z_dim=20):
        super(VAE, self).__init__()
        self.fc1 = nn.Linear(image_size, h_dim)
        self.fc2 = nn.Linear(h_dim, z_dim)
        self.fc3 = nn.Linear(h_dim, z_dim)
        self.fc4 = nn.Linear(z_dim, h_dim)
        self.fc5 = nn.Linear(h_dim, image_size)
        
    def encode(self, x):
        h = F.relu(self.fc1(x))
        return self.fc2(h), self.fc3(h)
    
    def reparameterize(self, mu, log_var):
        std = torch.exp(log_var/2)
        eps = torch.from_numpy(_normal.standard_normal(tuple(std.shape)).astype(np.float32))  # (det) randn_like
        return mu + eps * std

    def decode(self, z):
        h = F.relu(self.fc4(z))
        return F.sigmoid(self.fc5(h))
    
    def forward(self, x):
        mu, log_var = self.encode(x)
        z = self.reparameterize(mu, log_var)
        x_reconst = self.decode(z)
        return x_reconst, mu, log_var

model = det(VAE(h_dim=h_dim, z_dim=z_dim), seed=1, scale=0.05).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

# Start training
for epoch in range(num_epochs):
    for i, (x, _) in enumerate(data_loader):
        # Forward pass
        x = x.to(device).view(-1, image_size)
        x_reconst, mu, log_var = model(x)
        
        # Compute reconstruction loss and kl divergence
        # For KL divergence, see Appendix B in VAE paper or http://yunjey47.tistory.com/43
        reconst_loss = F.binary_cross_entropy(x_reconst, x, size_average=False)
        kl_div = - 0.5 * torch.sum(1 + log_var - mu.pow(2) - log_var.exp())
        
        # Backprop and optimize
        loss = reconst_loss + kl_div
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        
        if (i+1) % 2 == 0:
            print ("Epoch[{}/{}], Step [{}/{}], Reconst Loss: {:.4f}, KL Div: {:.4f}" 
                   .format(epoch+1, num_epochs, i+1, len(data_loader), reconst_loss.item(), kl_div.item()))
    
    with torch.no_grad():
        # Save the sampled images
        z = torch.from_numpy(_normal.standard_normal((batch_size, z_dim)).astype(np.float32)).to(device)
        out = model.decode(z).view(-1, 1, 28, 28)
        save_image(out, os.path.join(sample_dir, 'sampled-{}.png'.format(epoch+1)))

        # Save the reconstructed images
        out, _, _ = model(x)
        x_concat = torch.cat([x.view(-1, 1, 28, 28), out.view(-1, 1, 28, 28)], dim=3)
        save_image(x_concat, os.path.join(sample_dir, 'reconst-{}.png'.format(epoch+1)))
report(saved=_saved, fc2=model.fc2.weight[:2, :5])
