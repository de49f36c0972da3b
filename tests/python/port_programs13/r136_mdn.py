import math
import torch
import torch.nn as nn
import torch.nn.functional as F
class MDN(nn.Module):
    def __init__(self, K=3):
        super().__init__()
        self.h = nn.Sequential(nn.Linear(1, 16), nn.Tanh())
        self.pi, self.mu, self.sigma = nn.Linear(16, K), nn.Linear(16, K), nn.Linear(16, K)
    def forward(self, x):
        h = self.h(x)
        return F.log_softmax(self.pi(h), -1), self.mu(h), F.elu(self.sigma(h)) + 1 + 1e-6
def nll(log_pi, mu, sigma, y):
    lp = -0.5 * ((y - mu) / sigma) ** 2 - sigma.log() - 0.5 * math.log(2 * math.pi)
    return -torch.logsumexp(log_pi + lp, dim=-1).mean()
net = det(MDN(), 0, 0.4)
x = torch.linspace(-1, 1, 20).unsqueeze(1)
y = torch.sin(3 * x) + 0.1 * data(20, 1)
opt = torch.optim.Adam(net.parameters(), lr=0.01)
L = []
for _ in range(5):
    loss = nll(*net(x), y)
    opt.zero_grad(); loss.backward(); opt.step(); L.append(loss.item())
log_pi, mu, sigma = net(x)
mode = mu.gather(1, log_pi.argmax(1, keepdim=True))
mix = torch.distributions.MixtureSameFamily(torch.distributions.Categorical(logits=log_pi), torch.distributions.Normal(mu, sigma))
report(L=L, mode=mode[:4, 0], same=torch.allclose(-mix.log_prob(y.squeeze(1)).mean(), nll(log_pi, mu, sigma, y), atol=1e-5), var=mix.variance[:3])
