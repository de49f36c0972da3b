import numpy as np
import torch
from torch.utils.data import Dataset, DataLoader


class FaceLandmarksDataset(Dataset):
    def __init__(self, n, transform=None):
        rs = np.random.RandomState(7)
        self.images = [rs.randint(0, 255, size=(8 + i % 3, 10, 3)).astype(np.uint8) for i in range(n)]
        self.landmarks = [rs.uniform(0, 8, size=(4, 2)).astype('float') for _ in range(n)]
        self.transform = transform

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        if torch.is_tensor(idx):
            idx = idx.tolist()
        sample = {'image': self.images[idx], 'landmarks': self.landmarks[idx]}
        if self.transform:
            sample = self.transform(sample)
        return sample


class Rescale(object):
    def __init__(self, output_size):
        assert isinstance(output_size, (int, tuple))
        self.output_size = output_size

    def __call__(self, sample):
        image, landmarks = sample['image'], sample['landmarks']
        h, w = image.shape[:2]
        new_h, new_w = self.output_size
        rows = (np.arange(new_h) * h // new_h)
        cols = (np.arange(new_w) * w // new_w)
        img = image[rows][:, cols]
        landmarks = landmarks * [new_w / w, new_h / h]
        return {'image': img, 'landmarks': landmarks}


class ToTensor(object):
    def __call__(self, sample):
        image, landmarks = sample['image'], sample['landmarks']
        image = image.transpose((2, 0, 1))
        return {'image': torch.from_numpy(image.copy()), 'landmarks': torch.from_numpy(landmarks)}


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, x):
        for t in self.transforms:
            x = t(x)
        return x


raw = FaceLandmarksDataset(6)
first = raw[0]
ds = FaceLandmarksDataset(6, transform=Compose([Rescale((6, 6)), ToTensor()]))
s = ds[torch.tensor(1)]
dataloader = DataLoader(ds, batch_size=4, shuffle=False, num_workers=0)
batches = []
for i_batch, sample_batched in enumerate(dataloader):
    batches.append([i_batch, sample_batched['image'].size(), sample_batched['landmarks'].size(),
                    sample_batched['image'].dtype, sample_batched['landmarks'].dtype])
report(first_shape=list(first['image'].shape), s_image=s['image'].shape, s_land=s['landmarks'], batches=batches,
       last=sample_batched['landmarks'][-1], img_sum=sample_batched['image'].sum())
