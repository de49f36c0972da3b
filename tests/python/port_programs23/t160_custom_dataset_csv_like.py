import io
import csv
import torch
from torch.utils.data import Dataset, DataLoader

raw = "id,f1,f2,label\n0,0.5,1.5,1\n1,-0.25,2.0,0\n2,1.0,-1.0,1\n3,0.0,0.5,0\n4,2.5,0.25,1\n"


class CustomDataset(Dataset):
    def __init__(self, text, transform=None, target_transform=None):
        rows = list(csv.DictReader(io.StringIO(text)))
        self.features = [[float(r['f1']), float(r['f2'])] for r in rows]
        self.labels = [int(r['label']) for r in rows]
        self.transform = transform
        self.target_transform = target_transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        x = torch.tensor(self.features[idx])
        y = self.labels[idx]
        if self.transform:
            x = self.transform(x)
        if self.target_transform:
            y = self.target_transform(y)
        return x, y


ds = CustomDataset(raw, transform=lambda t: (t - 0.5) * 2, target_transform=lambda y: torch.tensor(y, dtype=torch.float32))
loader = DataLoader(ds, batch_size=2, shuffle=False)
batches = [(xb, yb) for xb, yb in loader]
it = iter(loader)
first_x, first_y = next(it)
model = det(torch.nn.Linear(2, 1), seed=3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
lossf = torch.nn.BCEWithLogitsLoss()
losses = []
for epoch in range(3):
    for xb, yb in loader:
        opt.zero_grad()
        loss = lossf(model(xb).squeeze(1), yb)
        loss.backward()
        opt.step()
        losses.append(round(loss.item(), 6))
report(n=len(ds), batches=[list(b) for b in batches], first=[first_x, first_y], losses=losses, item=list(ds[4]))
