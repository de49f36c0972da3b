import torch
from torch.utils.data import Dataset, DataLoader


class Det(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        img = torch.full((3, 4, 4), float(i))
        target = {"boxes": torch.tensor([[0.0, 0.0, 1.0 + i, 2.0]] * (i % 3 + 1)), "labels": torch.ones(i % 3 + 1, dtype=torch.int64)}
        return img, target


dl = DataLoader(Det(), batch_size=2, shuffle=False, collate_fn=lambda batch: tuple(zip(*batch)))
out = []
for images, targets in dl:
    images = list(img for img in images)
    targets = [{k: v for k, v in t.items()} for t in targets]
    out.append([len(images), [t["boxes"].shape[0] for t in targets], torch.stack(images).mean().item()])
report(out=out, types=type(next(iter(dl))).__name__)
