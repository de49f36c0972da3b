import io
import torch
import torch.nn as nn

m = det(nn.Linear(3, 2))
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)
x = data(4, 3, seed=1)
for _ in range(2):
    opt.zero_grad()
    m(x).pow(2).mean().backward()
    opt.step()
buf = io.BytesIO()
torch.save({"m": m.state_dict(), "o": opt.state_dict()}, buf)
buf.seek(0)
ck = torch.load(buf)
m2 = det(nn.Linear(3, 2), seed=9)
m2.load_state_dict(ck["m"])
opt2 = torch.optim.SGD(m2.parameters(), lr=0.5)
opt2.load_state_dict(ck["o"])
for mm, oo in ((m, opt), (m2, opt2)):
    oo.zero_grad()
    mm(x).pow(2).mean().backward()
    oo.step()
report(w=m.weight, same=torch.allclose(m.weight, m2.weight), mb=opt2.state[m2.weight]["momentum_buffer"], g=opt2.param_groups[0]["nesterov"], lr=opt2.param_groups[0]["lr"])
