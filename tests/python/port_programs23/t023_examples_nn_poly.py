import torch
import math

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
model = torch.nn.Sequential(
    torch.nn.Linear(3, 1),
    torch.nn.Flatten(0, 1)
)
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.5, -0.1, 0.02]]))
    model[0].bias.fill_(0.1)
loss_fn = torch.nn.MSELoss(reduction='sum')
learning_rate = 1e-6
log = []
for t in range(300):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        log.append(loss.item())
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
linear_layer = model[0]
report(log=log, xx_shape=xx.shape, xx_dtype=xx.dtype, y_pred_shape=y_pred.shape,
       result=f'Result: y = {linear_layer.bias.item()} + {linear_layer.weight[:, 0].item()} x + {linear_layer.weight[:, 1].item()} x^2 + {linear_layer.weight[:, 2].item()} x^3')
