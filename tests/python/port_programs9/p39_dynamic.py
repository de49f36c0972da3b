import random, math
import torch
class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.tensor(0.1)); self.b = torch.nn.Parameter(torch.tensor(-0.2))
        self.c = torch.nn.Parameter(torch.tensor(0.3)); self.d = torch.nn.Parameter(torch.tensor(0.01))
        self.e = torch.nn.Parameter(torch.tensor(0.02))
    def forward(self, x, k):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, k):
            y = y + self.e * x ** exp
        return y
    def string(self):
        return f'y = {self.a.item()} + {self.b.item()} x + {self.c.item()} x^2 + {self.d.item()} x^3 + {self.e.item()} x^4 ? + {self.e.item()} x^5 ?'
x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
model = DynamicNet()
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
ks = [4, 5, 6, 4, 6, 5] * 10
hist = []
for t, k in enumerate(ks):
    y_pred = model(x, k)
    loss = criterion(y_pred, y)
    if t % 10 == 9:
        hist.append(loss.item())
    optimizer.zero_grad(); loss.backward(); optimizer.step()
report(hist=hist, params=[p.item() for p in model.parameters()], names=[n for n, _ in model.named_parameters()], dim=model.a.dim(), shape=model.a.shape)
