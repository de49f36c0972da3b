import torch
import math


class Polynomial3(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.1))
        self.b = torch.nn.Parameter(torch.tensor(0.8))
        self.c = torch.nn.Parameter(torch.tensor(-0.05))
        self.d = torch.nn.Parameter(torch.tensor(-0.1))

    def forward(self, x):
        return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3

    def string(self):
        return f'y = {self.a.item()} + {self.b.item()} x + {self.c.item()} x^2 + {self.d.item()} x^3'


x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
model = Polynomial3()
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
log = []
for t in range(300):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 100 == 99:
        log.append(loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
report(log=log, result=f'Result: {model.string()}', names=[n for n, _ in model.named_parameters()],
       shapes=[p.shape for p in model.parameters()])
