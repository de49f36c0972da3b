import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)), seed=1)
opt = torch.optim.SGD([
    {'params': model[0].parameters()},
    {'params': model[2].parameters(), 'lr': 1e-3}
], lr=1e-2, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
x, y = data(16, 4, seed=2), data(16, 1, seed=3)
for _ in range(3):
    opt.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()
    sched.step()
ck = {'model': model.state_dict(), 'opt': opt.state_dict(), 'sched': sched.state_dict()}
torch.save(ck, 'ck.pt')
m2 = det(nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)), seed=9)
o2 = torch.optim.SGD([{'params': m2[0].parameters()}, {'params': m2[2].parameters(), 'lr': 1e-3}], lr=1e-2, momentum=0.9)
s2 = torch.optim.lr_scheduler.StepLR(o2, step_size=2, gamma=0.5)
c = torch.load('ck.pt', weights_only=True)
m2.load_state_dict(c['model'])
o2.load_state_dict(c['opt'])
s2.load_state_dict(c['sched'])
lrs = []
for _ in range(3):
    for o, m, s in ((opt, model, sched), (o2, m2, s2)):
        o.zero_grad()
        nn.functional.mse_loss(m(x), y).backward()
        o.step()
        s.step()
    lrs.append([g['lr'] for g in o2.param_groups])
report(lrs=lrs, same=torch.equal(model[0].weight, m2[0].weight), last_epoch=s2.last_epoch, sched_keys=sorted(sched.state_dict().keys()),
       groups=[sorted(k for k in g if k != 'params') for g in c['opt']['param_groups']][:1], w=m2[2].weight)
