import torch
import math

dtype = torch.float
device = torch.device("cpu")
x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)
a = torch.tensor(0.1, device=device, dtype=dtype)
b = torch.tensor(-0.2, device=device, dtype=dtype)
c = torch.tensor(0.05, device=device, dtype=dtype)
d = torch.tensor(0.3, device=device, dtype=dtype)
learning_rate = 1e-6
log = []
for t in range(300):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum().item()
    if t % 100 == 99:
        log.append(loss)
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d
report(log=log, result=f'Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3')
