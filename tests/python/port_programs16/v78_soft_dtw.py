import torch


def soft_min(a, b, c, gamma):
    stacked = torch.stack([a, b, c], -1)
    return -gamma * torch.logsumexp(-stacked / gamma, -1)


def soft_dtw(x, y, gamma=0.1):
    D = torch.cdist(x, y) ** 2
    n, m = D.shape
    R = [[torch.tensor(float("inf"))] * (m + 1) for _ in range(n + 1)]
    R[0][0] = torch.tensor(0.0)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            R[i][j] = D[i - 1, j - 1] + soft_min(R[i - 1][j - 1], R[i - 1][j], R[i][j - 1], gamma)
    return R[n][m]


x = torch.sin(torch.linspace(0, 3, 6)).unsqueeze(1).requires_grad_()
y = torch.sin(torch.linspace(0.3, 3.3, 5)).unsqueeze(1)
sdtw = soft_dtw(x, y)
sdtw.backward()
report(sdtw=sdtw.item(), g=x.grad.squeeze(), lse_inf=torch.logsumexp(torch.tensor([float("-inf"), float("-inf")]), 0).item())
