import torch
x = torch.tensor([1.0, 4.0, 9.0, 16.0, 25.0])
report(d=torch.diff(x), d2=torch.diff(x, n=2), dp=torch.diff(x, prepend=torch.tensor([0.0])), g=torch.gradient(x)[0], gs=torch.gradient(x, spacing=2.0)[0],
       tz=torch.trapezoid(x), tzx=torch.trapezoid(x, dx=0.5), tzxs=torch.trapezoid(x, x=torch.tensor([0.0, 1.0, 3.0, 4.0, 6.0])), ct=torch.cumulative_trapezoid(x),
       d2d=torch.diff(torch.arange(6).view(2, 3), dim=0), g2=torch.gradient(torch.arange(6.0).view(2, 3) ** 2, dim=1)[0])
