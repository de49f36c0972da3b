import torch
from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    def __len__(self):
        return 10

    def __getitem__(self, i):
        return torch.tensor([float(i)]), i * i


def seed_worker(worker_id):
    info = torch.utils.data.get_worker_info()
    assert info is not None and info.id == worker_id


g = torch.Generator()
g.manual_seed(0)
dl = DataLoader(Squares(), batch_size=3, num_workers=2, pin_memory=True, worker_init_fn=seed_worker, generator=g,
                persistent_workers=True, prefetch_factor=2)
epochs = []
for epoch in range(2):
    epochs.append([(x.squeeze(1).tolist(), y.tolist()) for x, y in dl])
report(epochs=epochs, n=len(dl), pinned=next(iter(dl))[0].is_pinned() in (True, False))
