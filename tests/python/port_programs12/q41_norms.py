import torch
import torch.nn as nn
import torch.nn.functional as F
x = data(3, 4, 5, 5)
res = {}
gn = det(nn.GroupNorm(2, 4)); res["gn"] = gn(x)[0, :, 0, 0]
inn = nn.InstanceNorm2d(4, affine=True, track_running_stats=True); det(inn)
res["in_train"] = inn(x)[1, :, 2, 2]; res["in_rm"] = inn.running_mean; res["in_eval"] = inn.eval()(x)[1, :, 2, 2]
res["in1d"] = nn.InstanceNorm1d(4)(x[:, :, 0])[0, 0]
ln = nn.LayerNorm([5, 5], elementwise_affine=False); res["ln"] = ln(x)[0, 0, 0]
res["ln_nobias"] = det(nn.LayerNorm(5, bias=False))(x)[0, 0, 0]
res["lrn"] = nn.LocalResponseNorm(3, alpha=1e-2, beta=0.75, k=1.0)(x)[0, :, 0, 0]
bn = det(nn.BatchNorm2d(4, momentum=None))
for i in range(3):
    bn(x * (i + 1))
res["bn_cma"] = [bn.running_mean, bn.running_var, bn.num_batches_tracked]
bn.eval(); res["bn_eval"] = bn(x)[0, :, 0, 0]
bn2 = nn.BatchNorm1d(4, affine=False, track_running_stats=False)
res["bn_nots"] = bn2.eval()(x[:, :, 0, 0])
res["bn3d"] = det(nn.BatchNorm3d(4))(x.unsqueeze(2))[0, :, 0, 0, 0]
res["fnorm"] = [F.normalize(x[0, 0], p=1, dim=0)[:, 0], F.normalize(x[0, 0], dim=-1, eps=1e-3)[0], F.layer_norm(x, (5,), eps=1e-3)[0, 0, 0], F.group_norm(x, 1)[0, 0, 0], F.instance_norm(x)[0, 0, 0]]
res["fbn"] = F.batch_norm(x, torch.zeros(4), torch.ones(4), weight=torch.full((4,), 2.0), training=False, eps=0.1)[0, :, 0, 0]
rm, rv = torch.zeros(4), torch.ones(4)
F.batch_norm(x, rm, rv, training=True, momentum=0.5)
res["fbn_rs"] = [rm, rv]
if hasattr(nn, "RMSNorm"):
    res["rms"] = det(nn.RMSNorm(5, eps=1e-5))(x)[0, 0, 0]
    res["frms"] = F.rms_norm(x, (5,))[0, 0, 0]
xr = x.clone().requires_grad_()
gn(xr).pow(2).sum().backward()
res["g"] = xr.grad[0, 0, 0]
res["wn"] = [gn.weight.grad, gn.bias.grad]
report(**res)
