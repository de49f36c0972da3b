import torch
import torch.nn as nn
torch.set_default_dtype(torch.float64)
m = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
res = {"dt": [str(torch.get_default_dtype()), str(m[0].weight.dtype), str(torch.tensor([1.5]).dtype), str(torch.zeros(1).dtype), str(torch.arange(0.0, 1.0, 0.5).dtype), str(torch.tensor(2).dtype), str(m[1].num_batches_tracked.dtype), str(torch.randn(2).dtype)]}
det(m)
x = torch.tensor([[0.1, 0.2, 0.3], [0.4, -0.5, 0.6], [1.0, 2.0, -1.0]])
res["out"] = m(x)
torch.set_default_dtype(torch.float32)
m2 = det(nn.Linear(3, 2)).double()
res["d2"] = [str(m2.weight.dtype), str(m2(x).dtype)]
m3 = det(nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2)))
m3.to(torch.float64)
res["d3"] = [str(m3[1].running_mean.dtype), str(m3[1].num_batches_tracked.dtype), m3(x).dtype == torch.float64]
m3.float()
res["d4"] = [str(m3[0].bias.dtype), str(torch.tensor([1.0]).dtype), str((torch.ones(1) * torch.ones(1, dtype=torch.float64)).dtype)]
m4 = nn.Linear(2, 2, dtype=torch.float64)
res["d5"] = [str(m4.weight.dtype), str(torch.zeros(2, dtype=torch.half).dtype), str(torch.ones(1).to(torch.float64).to(torch.int32).dtype), str(torch.ones(1).type(torch.DoubleTensor).dtype), str(torch.ones(1).type(torch.int64).dtype), torch.ones(1).type()]
report(**res)
