import torch
from torch.utils.data import DataLoader, Dataset


class FakeFolder(Dataset):
    def __init__(self, files):
        classes = sorted({f.split("/")[0] for f in files})
        self.class_to_idx = {c: i for i, c in enumerate(classes)}
        self.samples = [(f, self.class_to_idx[f.split("/")[0]]) for f in sorted(files)]
        self.targets = [t for _, t in self.samples]

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        path, target = self.samples[i]
        img = torch.full((1, 2, 2), float(len(path)))
        return img, target


ds = FakeFolder(["dog/1.png", "cat/22.png", "cat/3.png", "bird/x.jpg"])
counts = torch.bincount(torch.tensor(ds.targets))
weights = 1.0 / counts[torch.tensor(ds.targets)].float()
dl = DataLoader(ds, batch_size=2)
b = next(iter(dl))
report(cti=ds.class_to_idx, targets=ds.targets, weights=weights, img=b[0][:, 0, 0, 0], tgt=b[1])
