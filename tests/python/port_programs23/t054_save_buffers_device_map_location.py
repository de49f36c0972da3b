import io
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
det(model, seed=1)
model.train()
model(data(8, 3, seed=2))
sd = model.state_dict()
keys = list(sd.keys())
buf = io.BytesIO()
torch.save(sd, buf)
buf.seek(0)
loaded = torch.load(buf, map_location=torch.device('cpu'), weights_only=True)
m2 = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
m2.load_state_dict(loaded)
m2.eval()
model.eval()
x = data(3, 3, seed=4)
buf.seek(0)
loaded2 = torch.load(buf, map_location='cpu', weights_only=True)
report(keys=keys, nbt=loaded['1.num_batches_tracked'], rm=loaded['1.running_mean'], out=m2(x),
       same=torch.equal(m2(x), model(x)), dtype=loaded['1.num_batches_tracked'].dtype, same2=torch.equal(loaded2['0.weight'], sd['0.weight']))
