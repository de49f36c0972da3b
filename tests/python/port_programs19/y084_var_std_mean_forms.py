import torch
x = data(3, 5, seed=7)
vm = torch.var_mean(x, dim=1)
sm = torch.std_mean(x, dim=0, correction=0)
report(v=vm[0], m=vm[1], s=sm[0], sm=sm[1], vall=x.var(), vu=x.var(unbiased=False), sc2=x.std(1, correction=2), one=torch.tensor([5.0]).var(), am=torch.aminmax(x).min,
       amd=torch.aminmax(x, dim=1).max)
