import torch
from torch.utils.data import DataLoader, Dataset


class Compose:
    def __init__(self, ts):
        self.ts = ts

    def __call__(self, x):
        for t in self.ts:
            x = t(x)
        return x


class ToFloat:
    def __call__(self, x):
        return x.float() / 255


class Normalize:
    def __init__(self, mean, std):
        self.mean = torch.tensor(mean).view(-1, 1, 1)
        self.std = torch.tensor(std).view(-1, 1, 1)

    def __call__(self, x):
        return (x - self.mean) / self.std


class Imgs(Dataset):
    def __init__(self, n, transform=None):
        self.x = (torch.sigmoid(data(n, 2, 3, 3, seed=1)) * 255).to(torch.uint8)
        self.y = torch.arange(n) % 3
        self.transform = transform

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        x = self.x[i]
        if self.transform:
            x = self.transform(x)
        return x, self.y[i]


ds = Imgs(5, Compose([ToFloat(), Normalize([0.5, 0.5], [0.25, 0.25])]))
xs, ys = next(iter(DataLoader(ds, batch_size=5)))
report(x=xs[0, 0], y=ys, dt=xs.dtype, raw=Imgs(5)[2][0][1], lens=len(ds))
