import numpy as np
import torch
from torch.utils.data import Dataset


class Lambda:
    def __init__(self, lambd):
        self.lambd = lambd

    def __call__(self, x):
        return self.lambd(x)


class ToTensor:
    def __call__(self, pic):
        arr = np.asarray(pic, dtype=np.uint8)
        t = torch.from_numpy(arr.copy()).permute(2, 0, 1).contiguous()
        return t.to(dtype=torch.float32).div(255)


class Normalize:
    def __init__(self, mean, std):
        self.mean, self.std = torch.tensor(mean), torch.tensor(std)

    def __call__(self, t):
        return (t - self.mean[:, None, None]) / self.std[:, None, None]


class Compose:
    def __init__(self, ts):
        self.ts = ts

    def __call__(self, x):
        for t in self.ts:
            x = t(x)
        return x


target_transform = Lambda(lambda y: torch.zeros(10, dtype=torch.float).scatter_(0, torch.tensor(y), value=1))


class ImgDataset(Dataset):
    def __init__(self, transform=None, target_transform=None):
        rs = np.random.RandomState(3)
        self.imgs = rs.randint(0, 256, size=(5, 4, 4, 3))
        self.labels = [3, 1, 4, 1, 5]
        self.transform = transform
        self.target_transform = target_transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        image, label = self.imgs[idx], self.labels[idx]
        if self.transform:
            image = self.transform(image)
        if self.target_transform:
            label = self.target_transform(label)
        return image, label


ds = ImgDataset(transform=Compose([ToTensor(), Normalize([0.5, 0.5, 0.5], [0.25, 0.25, 0.25])]), target_transform=target_transform)
img, lab = ds[2]
batch = torch.utils.data.default_collate([ds[i] for i in range(3)])
report(img=img[:, 0], lab=lab, shape=img.shape, batch=[b.shape for b in batch], dtype=img.dtype, lab_dtype=lab.dtype)
