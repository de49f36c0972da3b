import torch

y = 10 + torch.sin(torch.arange(36).float() * 2 * torch.pi / 12) * 3 + torch.arange(36).float() * 0.2
alpha, beta, gamma, m = 0.4, 0.1, 0.3, 12
level = y[:m].mean()
trend = (y[m:2 * m].mean() - y[:m].mean()) / m
season = y[:m] - level
fitted = []
for t in range(m, 36):
    s = season[t % m]
    fitted.append(level + trend + s)
    new_level = alpha * (y[t] - s) + (1 - alpha) * (level + trend)
    trend = beta * (new_level - level) + (1 - beta) * trend
    season[t % m] = gamma * (y[t] - new_level) + (1 - gamma) * s
    level = new_level
fitted = torch.stack(fitted)
forecast = torch.stack([level + (h + 1) * trend + season[(36 + h) % m] for h in range(4)])
report(mae=(fitted - y[m:]).abs().mean().item(), forecast=forecast, level=level.item(), trend=trend.item())
