"""torch.utils.data's everyday parts: Dataset, TensorDataset, DataLoader (batching, shuffling,
drop_last, collate of tensors, numbers and nested tuples/dicts), random_split, Subset.

Loading runs in the calling process (num_workers is accepted and ignored). Shuffling and
random_split draw their permutation from meshflow's generator (mf.manual_seed), or from the
mf.Generator passed as `generator`, so ranks that seed alike shuffle alike, as data
parallelism needs.
"""
import numbers

import numpy as _np

from .. import _C
from .._tensor import Tensor, tensor

__all__ = ["Dataset", "TensorDataset", "DataLoader", "Subset", "random_split", "default_collate"]


class Dataset:
    """A map-style dataset: __getitem__(i) and __len__."""

    def __getitem__(self, index):
        raise NotImplementedError

    def __add__(self, other):
        return ConcatDataset([self, other])


class TensorDataset(Dataset):
    """Samples are the i-th rows of each tensor (all of the same first size)."""

    def __init__(self, *tensors):
        if not tensors:
            raise ValueError("TensorDataset needs at least one tensor")
        if any(t.shape[0] != tensors[0].shape[0] for t in tensors):
            raise ValueError(f"TensorDataset: size mismatch between tensors: {[t.shape[0] for t in tensors]}")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].shape[0]


class ConcatDataset(Dataset):
    def __init__(self, datasets):
        self.datasets = list(datasets)
        self.cumulative_sizes = list(_np.cumsum([len(d) for d in self.datasets]))

    def __len__(self):
        return int(self.cumulative_sizes[-1]) if self.cumulative_sizes else 0

    def __getitem__(self, index):
        if index < 0:
            index += len(self)
        which = int(_np.searchsorted(self.cumulative_sizes, index, side="right"))
        start = 0 if which == 0 else int(self.cumulative_sizes[which - 1])
        return self.datasets[which][index - start]


class Subset(Dataset):
    def __init__(self, dataset, indices):
        self.dataset, self.indices = dataset, list(indices)

    def __getitem__(self, index):
        return self.dataset[self.indices[index]]

    def __len__(self):
        return len(self.indices)


def _permutation(n, generator=None):
    """A permutation of range(n) drawn from meshflow's generator (one call of it), or from
    `generator` (an mf.Generator) when given."""
    if generator is not None:
        return generator._rng().permutation(n)
    seed, offset = _C.next_random_call(max(n, 1))
    return _np.random.default_rng([seed, offset]).permutation(n)


def random_split(dataset, lengths, generator=None):
    """Subsets of the given lengths (or fractions summing to 1) of a random permutation."""
    n = len(dataset)
    if all(isinstance(x, float) for x in lengths) and abs(sum(lengths) - 1) < 1e-9:
        sizes = [int(x * n) for x in lengths]
        for i in range(n - sum(sizes)):
            sizes[i % len(sizes)] += 1
    else:
        sizes = [int(x) for x in lengths]
    if sum(sizes) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = _permutation(n, generator).tolist()
    out, start = [], 0
    for size in sizes:
        out.append(Subset(dataset, order[start:start + size]))
        start += size
    return out


def default_collate(batch):
    """Stacks a list of samples: tensors into one tensor, numbers into a tensor, tuples and
    dicts element by element (torch's default_collate)."""
    from .._ops_shape import stack
    first = batch[0]
    if isinstance(first, Tensor):
        return stack(list(batch))
    if isinstance(first, bool) or isinstance(first, numbers.Integral):
        return tensor([int(x) for x in batch])
    if isinstance(first, numbers.Real):
        return tensor([float(x) for x in batch], dtype="float64")
    if isinstance(first, _np.ndarray):
        return tensor(_np.stack(batch))
    if isinstance(first, dict):
        return {key: default_collate([b[key] for b in batch]) for key in first}
    if isinstance(first, (tuple, list)):
        return type(first)(default_collate(list(items)) for items in zip(*batch)) if isinstance(first, tuple) \
            else [default_collate(list(items)) for items in zip(*batch)]
    return batch


class DataLoader:
    """Batches of a dataset, in order or shuffled, as torch's DataLoader."""

    def __init__(self, dataset, batch_size=1, shuffle=False, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 generator=None, prefetch_factor=None, persistent_workers=False):
        if batch_size is not None and (not isinstance(batch_size, numbers.Integral) or batch_size <= 0):
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        self.dataset, self.batch_size, self.shuffle = dataset, batch_size, shuffle
        self.sampler, self.batch_sampler, self.drop_last = sampler, batch_sampler, drop_last
        self.collate_fn = collate_fn or default_collate
        self.num_workers, self.generator = num_workers, generator

    def _indices(self):
        if self.sampler is not None:
            return list(self.sampler)
        n = len(self.dataset)
        return _permutation(n, self.generator).tolist() if self.shuffle else list(range(n))

    def _batches(self):
        if self.batch_sampler is not None:
            yield from self.batch_sampler
            return
        indices = self._indices()
        if self.batch_size is None:
            yield from ([i] for i in indices)
            return
        for start in range(0, len(indices), self.batch_size):
            chunk = indices[start:start + self.batch_size]
            if len(chunk) < self.batch_size and self.drop_last:
                return
            yield chunk

    def __iter__(self):
        for chunk in self._batches():
            if self.batch_size is None and self.batch_sampler is None:
                yield self.dataset[chunk[0]]
            else:
                yield self.collate_fn([self.dataset[i] for i in chunk])

    def __len__(self):
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        n = len(self.sampler) if self.sampler is not None else len(self.dataset)
        if self.batch_size is None:
            return n
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
