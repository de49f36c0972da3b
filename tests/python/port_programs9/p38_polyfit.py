import math
import torch
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
det(model, 0, 0.1)
loss_fn = torch.nn.MSELoss(reduction='sum')
learning_rate = 1e-6
hist = []
for t in range(200):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 50 == 99 % 50:
        hist.append(loss.item())
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
linear_layer = model[0]
a = torch.tensor(0.1, requires_grad=True); b = torch.tensor(-0.2, requires_grad=True)
c = torch.tensor(0.3, requires_grad=True); d = torch.tensor(0.05, requires_grad=True)
optimizer = torch.optim.RMSprop([a, b, c, d], lr=1e-3)
for t in range(100):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    optimizer.zero_grad(); loss.backward(); optimizer.step()
s = f'Result: y = {linear_layer.bias.item()} + {linear_layer.weight[:, 0].item()} x + {linear_layer.weight[:, 1].item()} x^2 + {linear_layer.weight[:, 2].item()} x^3'
report(hist=hist, w=linear_layer.weight, b=linear_layer.bias, abcd=[a.item(), b.item(), c.item(), d.item()], final=loss.item(), xxdt=xx.dtype, slen=len(s.split()))
