import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Dropout(0.5), nn.Linear(6, 2)), seed=81)
x = data(8, 4, seed=82)
model.train()
torch.manual_seed(0)
out_train = model(x)
nbt = model[1].num_batches_tracked.item()
rm = model[1].running_mean.clone()
zeros = (model[3](torch.ones(1000)) == 0).float().mean().item()
kept = model[3](torch.ones(1000)).max().item()
model.eval()
e1 = model(x)
e2 = model(x)
r = dict(nbt=nbt, rm=rm, eval_same=torch.equal(e1, e2), e1=e1, dropout_zero_frac_ok=0.4 < zeros < 0.6, kept=kept,
         training=[m.training for m in model], nbt_eval=model[1].num_batches_tracked.item())
model[1].train()
r["mixed"] = [m.training for m in model]
bn = nn.BatchNorm1d(6, track_running_stats=False)
bn.eval()
r["no_track"] = bn(data(5, 6, seed=83))[0]
r["no_track_rm"] = bn.running_mean is None
report(**r)
