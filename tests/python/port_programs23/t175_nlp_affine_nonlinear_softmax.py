import torch
import torch.nn as nn
import torch.nn.functional as F

lin = det(nn.Linear(5, 3), seed=1)
data_ = data(2, 5, seed=2)
out = lin(data_)
relu = F.relu(out)
d = data(5, seed=3)
sm = F.softmax(d, dim=0)
lsm = F.log_softmax(d, dim=0)
report(out=out, relu=relu, sm=sm, total=F.softmax(d, dim=0).sum(), lsm=lsm, tanh=torch.tanh(out), sig=torch.sigmoid(out))
