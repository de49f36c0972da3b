import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, update_bn
from torch.utils.data import DataLoader, TensorDataset

model = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1)), seed=73)
swa = AveragedModel(model)
swa.update_parameters(model)
loader = DataLoader(TensorDataset(data(12, 3, seed=74), data(12, 1, seed=75)), batch_size=4)
bn = swa.module[1]
before = bn.running_mean.clone()
update_bn(loader, swa)
plain_loader = DataLoader(data(12, 3, seed=74), batch_size=6)
m2 = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4, momentum=0.3)), seed=73)
update_bn(plain_loader, m2)
report(before=before, rm=bn.running_mean, rv=bn.running_var, nbt=bn.num_batches_tracked, momentum=bn.momentum,
       m2_rm=m2[1].running_mean, m2_mom=m2[1].momentum, training=swa.training)
