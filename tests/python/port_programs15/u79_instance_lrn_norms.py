import torch
import torch.nn as nn

x = data(2, 4, 5, 5)
r = {}
inorm = nn.InstanceNorm2d(4, affine=True, track_running_stats=True)
det(inorm)
y = inorm(x)
r["in_mean"] = y.mean(dim=(2, 3))[0]
r["in_running"] = inorm.running_mean
inorm.eval()
r["in_eval"] = inorm(x)[0, 0, 0]
r["lrn"] = nn.LocalResponseNorm(size=3, alpha=1e-2, beta=0.75, k=2.0)(x)[1, 2, 0]
r["gn"] = nn.GroupNorm(2, 4, eps=1e-3)(x)[0, 3, 1]
ln = nn.LayerNorm([5, 5], elementwise_affine=True, bias=False)
r["ln"] = ln(x)[0, 0, 0]
r["ln_bias"] = ln.bias is None
bn = nn.BatchNorm2d(4, momentum=None)
for i in range(3):
    bn(x + i)
r["bn_cma"] = bn.running_mean
r["bn_nbt"] = bn.num_batches_tracked
bn_no = nn.BatchNorm1d(3, affine=False, track_running_stats=False)
r["bn_no_stats"] = [bn_no.running_mean is None, bn_no(data(4, 3)).mean(0).abs().max().item() < 1e-6]
bn.eval()
r["bn_eval"] = bn(x)[1, 1, 2]
r["fn_bn"] = nn.functional.batch_norm(x, torch.zeros(4), torch.ones(4), training=False, eps=0.0)[0, 0, 0]
r["fn_ln"] = nn.functional.layer_norm(x, (5,), eps=1e-5)[0, 0, 0]
r["fn_gn"] = nn.functional.group_norm(x, 1)[1, 0, 0]
r["fn_in"] = nn.functional.instance_norm(x)[0, 1, 1]
r["normalize"] = nn.functional.normalize(data(3, 4), p=1, dim=0)[:, 0]
r["in1d"] = nn.InstanceNorm1d(3)(data(2, 3, 6))[0, 0]
report(**r)
