import torch
xs = data(50, 3, seed=12)
n = 0
mean = torch.zeros(3)
m2 = torch.zeros(3)
for row in xs:
    n += 1
    delta = row - mean
    mean += delta / n
    m2 += delta * (row - mean)
var = m2 / (n - 1)
report(mean=mean, var=var, ref_mean=xs.mean(0), ref_var=xs.var(0), close=torch.allclose(var, xs.var(0), atol=1e-5))
