import torch
dt = 0.1
F_ = torch.tensor([[1.0, dt], [0.0, 1.0]], dtype=torch.float64)
H = torch.tensor([[1.0, 0.0]], dtype=torch.float64)
Q = 0.01 * torch.eye(2, dtype=torch.float64)
R = torch.tensor([[0.5]], dtype=torch.float64)
x = torch.zeros(2, 1, dtype=torch.float64)
P = torch.eye(2, dtype=torch.float64)
zs = (torch.arange(20, dtype=torch.float64) * 0.3 + data(20).double() * 0.5).view(-1, 1, 1)
est = []
for z in zs:
    x = F_ @ x
    P = F_ @ P @ F_.T + Q
    S = H @ P @ H.T + R
    K = P @ H.T @ torch.linalg.inv(S)
    x = x + K @ (z - H @ x)
    P = (torch.eye(2, dtype=torch.float64) - K @ H) @ P
    est.append(x[:, 0].clone())
est = torch.stack(est)
report(final=x.squeeze(1), P=P, est=est[::5], K=K.squeeze(1))
