import torch
import torch.nn as nn
import torch.autograd as autograd
D = det(nn.Sequential(nn.Linear(4, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1)), 0, 0.4)
G = det(nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 4)), 1, 0.4)
optD = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.0, 0.9))
optG = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.0, 0.9))
def compute_gradient_penalty(D, real_samples, fake_samples, alpha):
    interpolates = (alpha * real_samples + ((1 - alpha) * fake_samples)).requires_grad_(True)
    d_interpolates = D(interpolates)
    fake = torch.ones(real_samples.shape[0], 1, requires_grad=False)
    gradients = autograd.grad(outputs=d_interpolates, inputs=interpolates, grad_outputs=fake, create_graph=True, retain_graph=True, only_inputs=True)[0]
    gradients = gradients.view(gradients.size(0), -1)
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean()
real = data(8, 4)
dl, gl, gps = [], [], []
for i in range(3):
    z = data(8, 3, seed=10 + i)
    fake = G(z)
    optD.zero_grad()
    alpha = torch.rand(8, 1) * 0 + torch.linspace(0.1, 0.9, 8).unsqueeze(1)
    gp = compute_gradient_penalty(D, real, fake.detach(), alpha)
    d_loss = -torch.mean(D(real)) + torch.mean(D(fake.detach())) + 10 * gp
    d_loss.backward(); optD.step()
    optG.zero_grad()
    g_loss = -torch.mean(D(G(z)))
    g_loss.backward(); optG.step()
    dl.append(d_loss.item()); gl.append(g_loss.item()); gps.append(gp.item())
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x ** 3).sum()
g1, = autograd.grad(y, x, create_graph=True)
g2, = autograd.grad(g1.sum(), x)
report(dl=dl, gl=gl, gps=gps, g1=g1, g2=g2, g1rg=g1.requires_grad)
