import torch

xs = data(20, 3, seed=1) * 2 + 1
n = 0
mean = torch.zeros(3)
M2 = torch.zeros(3)
for x in xs:
    n += 1
    delta = x - mean
    mean += delta / n
    M2 += delta * (x - mean)
var = M2 / (n - 1)
bn = torch.nn.BatchNorm1d(3, momentum=None)
for chunk in xs.split(5):
    bn(chunk)
report(mean=mean, var=var, ref=torch.var_mean(xs, 0), rm=bn.running_mean, rv=bn.running_var, nbt=bn.num_batches_tracked)
