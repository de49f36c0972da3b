import torch
from torch.utils.data import Dataset, DataLoader


class WindowDS(Dataset):
    def __init__(self, series, lookback, horizon, stride=1):
        self.x = series
        self.lb, self.h, self.stride = lookback, horizon, stride

    def __len__(self):
        return (len(self.x) - self.lb - self.h) // self.stride + 1

    def __getitem__(self, i):
        s = i * self.stride
        return self.x[s:s + self.lb], self.x[s + self.lb:s + self.lb + self.h]


series = torch.arange(30, dtype=torch.float32).unsqueeze(-1).repeat(1, 2) * torch.tensor([1.0, -0.5])
ds = WindowDS(series, 6, 2, stride=3)
dl = DataLoader(ds, batch_size=4, shuffle=False, drop_last=False)
shapes = [(x.shape, y.shape) for x, y in dl]
xb, yb = next(iter(dl))
u = series.unfold(0, 8, 3)
same = torch.equal(u[:, :, :6].permute(0, 2, 1), torch.stack([ds[i][0] for i in range(len(ds))]))
# strided view
sv = torch.as_strided(series[:, 0].contiguous(), (4, 5), (3, 1))
lags = torch.stack([series[:, 0].roll(k) for k in (1, 2, 3)], 1)[3:]
report(n=len(ds), shapes=shapes, xb=xb[1], yb=yb[:, :, 1], u_shape=u.shape, same=same, sv=sv, lags=lags[:3])
