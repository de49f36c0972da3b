import torch
import torch.nn as nn
import torch.nn.functional as F

enc = det(nn.Linear(8, 4))
dec = det(nn.Linear(4, 8), seed=1)
x = torch.sigmoid(data(10, 8))
rho = 0.05
opt = torch.optim.RMSprop([*enc.parameters(), *dec.parameters()], lr=0.01)
for _ in range(5):
    h = torch.sigmoid(enc(x))
    recon = torch.sigmoid(dec(h))
    rho_hat = h.mean(0)
    kl = (rho * torch.log(rho / rho_hat) + (1 - rho) * torch.log((1 - rho) / (1 - rho_hat))).sum()
    l1 = sum(p.abs().sum() for n, p in enc.named_parameters() if "weight" in n)
    loss = F.binary_cross_entropy(recon, x) + 0.1 * kl + 1e-4 * l1
    opt.zero_grad()
    loss.backward()
    opt.step()
report(loss=loss.item(), kl=kl.item(), rho_hat=rho_hat.detach(), sq_avg=opt.state[enc.weight]["square_avg"][0])
