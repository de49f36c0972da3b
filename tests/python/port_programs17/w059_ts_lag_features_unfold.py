import torch

series = torch.arange(12, dtype=torch.float32) ** 1.5
win = series.unfold(0, 4, 1)
X, Y = win[:, :3], win[:, 3]
diff = torch.diff(series, n=1)
diff2 = torch.diff(series, n=2, prepend=torch.tensor([0.0, 0.0]))
roll_mean = torch.nn.functional.avg_pool1d(series.view(1, 1, -1), 3, stride=1).flatten()
ewm = torch.zeros_like(series)
ewm[0] = series[0]
for t in range(1, len(series)):
    ewm[t] = 0.3 * series[t] + 0.7 * ewm[t - 1]
lag = torch.roll(series, 1)
lag[0] = float("nan")
sol = torch.linalg.lstsq(torch.cat([X, torch.ones(len(X), 1)], 1), Y[:, None]).solution
report(X=X[:2], Y=Y, diff=diff, diff2=diff2, roll=roll_mean, ewm=ewm, lag=lag[:3], sol=sol)
# TOL 1e-3
