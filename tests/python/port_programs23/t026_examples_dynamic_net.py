import random
import torch
import math


class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.1))
        self.b = torch.nn.Parameter(torch.tensor(0.8))
        self.c = torch.nn.Parameter(torch.tensor(-0.05))
        self.d = torch.nn.Parameter(torch.tensor(-0.1))
        self.e = torch.nn.Parameter(torch.tensor(0.01))

    def forward(self, x, k):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, k + 1):
            y = y + self.e * x ** exp
        return y

    def string(self):
        return f'y = {self.a.item()} + {self.b.item()} x + {self.c.item()} x^2 + {self.d.item()} x^3 + {self.e.item()} x^4 ? + {self.e.item()} x^5 ?'


x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
model = DynamicNet()
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
rng = random.Random(0)
log = []
for t in range(200):
    k = rng.randint(3, 5)
    y_pred = model(x, k)
    loss = criterion(y_pred, y)
    if t % 50 == 49:
        log.append(loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
report(log=log, result=f'Result: {model.string()}')
