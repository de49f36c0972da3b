import torch
x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
def f(v):
    return (v[0] - 3) ** 4 + (v[0] - 3 * v[1]) ** 2
hist = []
for _ in range(8):
    H = torch.autograd.functional.hessian(f, x.detach())
    g = torch.autograd.functional.jacobian(f, x.detach())
    with torch.no_grad():
        x -= torch.linalg.solve(H, g)
    hist.append(f(x).item())
report(x=x.detach(), fx=hist[-1] < 1e-3, H=torch.autograd.functional.hessian(f, torch.tensor([1.0, 1.0], dtype=torch.float64)))
