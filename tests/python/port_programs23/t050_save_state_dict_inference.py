import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class TheModelClass(nn.Module):
    def __init__(self):
        super(TheModelClass, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


model = det(TheModelClass(), scale=0.1)
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
x = data(2, 3, 32, 32, seed=3)
loss = model(x).pow(2).mean()
loss.backward()
optimizer.step()
sizes = [(k, list(v.size())) for k, v in model.state_dict().items()]
opt_sd = optimizer.state_dict()
opt_view = {k: v for k, v in opt_sd['param_groups'][0].items() if k != 'params'}
PATH = "model.pt"
torch.save(model.state_dict(), PATH)
model2 = TheModelClass()
model2.load_state_dict(torch.load(PATH, weights_only=True))
model2.eval()
torch.save(model, "whole.pt")
model3 = torch.load("whole.pt", weights_only=False)
model3.eval()
with torch.no_grad():
    o1, o2, o3 = model(x), model2(x), model3(x)
report(sizes=sizes, opt_keys=list(opt_sd.keys()), params=opt_sd['param_groups'][0]['params'], opt_view=opt_view,
       state_n=len(opt_sd['state']), o1=o1, same=[torch.equal(o1, o2), torch.equal(o1, o3)], typ=type(model3).__name__)
