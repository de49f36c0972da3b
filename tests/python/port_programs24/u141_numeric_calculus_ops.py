import torch

y = torch.tensor([0.0, 1.0, 4.0, 9.0, 16.0])
x = torch.tensor([0.0, 1.0, 2.5, 3.0, 4.5])
report(diff=torch.diff(y, n=2), diff_pa=torch.diff(y, prepend=torch.tensor([-1.0]), append=torch.tensor([20.0, 30.0])),
       grad_unit=torch.gradient(y)[0], grad_sp=torch.gradient(y, spacing=2.0)[0], grad_x=torch.gradient(y, spacing=(x,))[0],
       grad_edge2=torch.gradient(y, edge_order=2)[0], trapz=torch.trapezoid(y, x).item(), trapz_dx=torch.trapezoid(y, dx=0.5).item(),
       cumtrapz=torch.cumulative_trapezoid(y, x), grad2d=torch.gradient(torch.arange(12.0).view(3, 4) ** 2, dim=1)[0][1])
