"""torch.utils.data: Dataset, IterableDataset, TensorDataset, ConcatDataset, ChainDataset,
Subset, random_split, the samplers (SequentialSampler, RandomSampler, SubsetRandomSampler,
WeightedRandomSampler, BatchSampler, DistributedSampler) and DataLoader (sampler=,
batch_sampler=, shuffle, drop_last, collate_fn, generator=), with torch's rules.

Loading runs in the calling process (num_workers is accepted and ignored). Random orders and
draws come from meshflow's generator (mf.manual_seed), or from the mf.Generator passed as
`generator`, so ranks that seed alike shuffle alike, as data parallelism needs. The orders
are torch's where torch's are fixed by a seed: DistributedSampler's (seed + epoch), and those
of the samplers, DataLoader(shuffle=True) and random_split given a Generator that only these
permutations drew from since it was made or seeded (PyTorch's CPU randperm, creation.h's
torch_cpu_permutation); other draws are not torch's numbers.
"""
import collections.abc
import math
import numbers

import numpy as _np

from ... import _C
from ..._tensor import Tensor, tensor

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "StackDataset", "ConcatDataset", "ChainDataset", "Subset",
           "random_split",
           "default_collate", "default_convert", "get_worker_info", "Sampler", "SequentialSampler", "RandomSampler",
           "SubsetRandomSampler",
           "WeightedRandomSampler", "BatchSampler", "DistributedSampler", "DataLoader"]


class Dataset:
    """A map-style dataset: __getitem__(i) and __len__."""

    def __getitem__(self, index):
        raise NotImplementedError

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A stream of samples: __iter__. A DataLoader batches it in the order it yields."""

    def __iter__(self):
        raise NotImplementedError

    def __add__(self, other):
        return ChainDataset([self, other])


class ChainDataset(IterableDataset):
    """The samples of each iterable dataset in turn."""

    def __init__(self, datasets):
        self.datasets = datasets

    def __iter__(self):
        for dataset in self.datasets:
            yield from dataset

    def __len__(self):
        return sum(len(d) for d in self.datasets)


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


class StackDataset(Dataset):
    """torch's: the i-th samples of several datasets of one length together, a tuple of them
    (datasets given by position) or a dict (by keyword)."""

    def __init__(self, *args, **kwargs):
        if bool(args) == bool(kwargs):
            raise ValueError("Supported either ``tuple``- (via ``args``) or``dict``- (via ``kwargs``) like "
                             "input/output, but both types are given." if args else "At least one dataset should be passed")
        self.datasets = args or kwargs
        lengths = {len(d) for d in (args or kwargs.values())}
        if len(lengths) != 1:
            raise ValueError("Size mismatch between datasets")
        self._length = lengths.pop()

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {k: d[index] for k, d in self.datasets.items()}
        return tuple(d[index] for d in self.datasets)

    def __len__(self):
        return self._length


class ConcatDataset(Dataset):
    """The samples of each map-style dataset in turn, indexed as one."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        if any(isinstance(d, IterableDataset) for d in self.datasets):
            raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = list(_np.cumsum([len(d) for d in self.datasets]))

    def __len__(self):
        return int(self.cumulative_sizes[-1]) if self.cumulative_sizes else 0

    def __getitem__(self, index):
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
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


def _numpy_rng(generator, count):
    """A NumPy generator for one draw of about `count` values: from meshflow's generator (one
    call of it), or from `generator` (an mf.Generator) when given."""
    if generator is not None:
        return generator._rng()
    seed, offset = _C.next_random_call(max(count, 1))
    return _np.random.default_rng([seed, offset])


def _permutation(n, generator=None):
    """A permutation of range(n) (a NumPy array): torch's, from a generator that only
    permutations drew from since its manual_seed."""
    order = generator._torch_permutation(n) if generator is not None else None
    return _np.asarray(order, dtype=_np.int64) if order is not None else _numpy_rng(generator, n).permutation(n)


def random_split(dataset, lengths, generator=None):
    """Subsets of the given lengths (or fractions summing to 1) of a random permutation."""
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        if any(not 0 <= x <= 1 for x in lengths):
            raise ValueError("Fraction at index is not between 0 and 1")
        sizes = [int(math.floor(x * n)) for x in lengths]
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
    """Stacks a list of samples as torch's default_collate: tensors and NumPy arrays into one
    tensor, bools, ints and floats into a bool, int64 or float64 tensor, NumPy scalars into a
    tensor of their dtype, mappings and namedtuples field by field (keeping their type), other
    sequences element by element into a list (a tuple's too, as torch's), anything else (str)
    as the sequence of the samples."""
    from ..._ops_shape import stack
    first = batch[0]
    if isinstance(first, Tensor):
        return stack(list(batch))
    if isinstance(first, _np.ndarray) and first.dtype.kind not in "SaUO":
        return tensor(_np.stack(batch))
    if isinstance(first, _np.generic) and first.dtype.kind not in "SaUO":
        return tensor(_np.array(batch))
    if isinstance(first, bool):
        return tensor(list(batch), dtype="bool")
    if isinstance(first, numbers.Integral):
        return tensor([int(x) for x in batch])
    if isinstance(first, numbers.Real):
        return tensor([float(x) for x in batch], dtype="float64")
    if isinstance(first, (str, bytes)):
        return batch
    if isinstance(first, collections.abc.Mapping):
        collated = {key: default_collate([b[key] for b in batch]) for key in first}
        try:
            return type(first)(collated)
        except TypeError:  # a mapping type that cannot be made from a dict
            return collated
    if isinstance(first, tuple) and hasattr(first, "_fields"):  # namedtuple
        return type(first)(*(default_collate(list(items)) for items in zip(*batch)))
    if isinstance(first, collections.abc.Sequence):
        if any(len(b) != len(first) for b in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(items) for items in zip(*batch)]
    return batch


def default_convert(data):
    """torch's default_convert (the collate_fn of DataLoader(batch_size=None)): NumPy arrays and
    scalars become tensors, containers are converted element by element, the rest kept."""
    if isinstance(data, _np.ndarray) and data.dtype.kind not in "SaUO":
        return tensor(data)
    if isinstance(data, _np.generic) and data.dtype.kind not in "SaUO":
        return tensor(_np.asarray(data))
    if isinstance(data, collections.abc.Mapping):
        return type(data)({k: default_convert(v) for k, v in data.items()})
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):  # a plain tuple becomes a list, as torch's (kept for compatibility there)
        return [default_convert(d) for d in data]
    if isinstance(data, list):
        return type(data)(default_convert(d) for d in data)
    return data


def get_worker_info():
    """None: loading runs in the calling process, as torch's main process sees it (a dataset
    that splits its work among workers by this reads one worker)."""
    return None


class Sampler:
    """The order of a dataset's indices: __iter__ (and __len__ where it is known)."""

    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """A fresh random order each iteration: without replacement, whole permutations (then part
    of one) up to num_samples (default len(data_source)); with replacement, num_samples
    uniform draws."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={replacement}")
        self.data_source, self.replacement, self._num_samples = data_source, replacement, num_samples
        self.generator = generator
        if not isinstance(self.num_samples, numbers.Integral) or isinstance(self.num_samples, bool) \
                or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n, count = len(self.data_source), self.num_samples
        if self.replacement:
            yield from _numpy_rng(self.generator, count).integers(0, n, count).tolist()
            return
        for _ in range(count // n):
            yield from _permutation(n, self.generator).tolist()
        # torch's draws one more permutation for the remainder, also an empty one
        yield from _permutation(n, self.generator)[:count % n].tolist()

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a fresh random order each iteration."""

    def __init__(self, indices, generator=None):
        self.indices, self.generator = indices, generator

    def __iter__(self):
        for i in _permutation(len(self.indices), self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """num_samples indices of range(len(weights)), each drawn with probability proportional to
    its weight (with replacement by default; without, each index at most once)."""

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        if not isinstance(num_samples, numbers.Integral) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        weights = _np.asarray(weights.tolist() if isinstance(weights, Tensor) else weights, dtype=_np.float64)
        if weights.ndim != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape {weights.shape}")
        if (weights < 0).any() or not _np.isfinite(weights).all() or weights.sum() <= 0:
            raise RuntimeError("invalid multinomial distribution: weights must be finite, non-negative and not all 0")
        if not replacement and num_samples > int((weights > 0).sum()):
            raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
        self.weights, self.num_samples, self.replacement, self.generator = weights, num_samples, replacement, generator

    def __iter__(self):
        rng = _numpy_rng(self.generator, self.num_samples)
        yield from rng.choice(len(self.weights), self.num_samples, self.replacement,
                              self.weights / self.weights.sum()).tolist()

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Lists of batch_size indices from `sampler`; the last one shorter unless drop_last."""

    def __init__(self, sampler, batch_size, drop_last):
        if not isinstance(batch_size, numbers.Integral) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self):
        batch = []
        for index in self.sampler:
            batch.append(index)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


class DistributedSampler(Sampler):
    """This rank's share of the dataset's indices, as torch's: every rank orders them alike
    (shuffled by seed + epoch, see set_epoch), pads them by repeating the first ones to a
    multiple of num_replicas (drop_last: drops the tail instead), and takes every
    num_replicas-th from its rank. num_replicas and rank default to meshflow.env's. The
    shuffled order is torch's for the same seed and epoch (creation.h's torch_cpu_permutation)."""

    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0, drop_last=False):
        from ... import env
        num_replicas = env.get_world_size() if num_replicas is None else num_replicas
        rank = env.get_rank() if rank is None else rank
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]")
        self.dataset, self.num_replicas, self.rank, self.epoch = dataset, num_replicas, rank, 0
        self.shuffle, self.seed, self.drop_last = shuffle, seed, drop_last
        n = len(dataset)
        if drop_last and n % num_replicas:
            self.num_samples = math.ceil((n - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(n / num_replicas)
        self.total_size = self.num_samples * num_replicas

    def __iter__(self):
        n = len(self.dataset)
        if self.shuffle:
            indices = _C.torch_cpu_permutation(n, (self.seed + self.epoch) & 0xFFFFFFFFFFFFFFFF)
        else:
            indices = list(range(n))
        if self.drop_last:
            indices = indices[:self.total_size]
        elif self.total_size > n:
            padding = self.total_size - n
            indices += (indices * math.ceil(padding / n))[:padding]
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self):
        return self.num_samples

    def set_epoch(self, epoch):
        """The epoch whose order the next iteration uses (shuffle=True): call it before each."""
        self.epoch = epoch


class DataLoader:
    """Batches of a dataset, as torch's DataLoader: a map-style dataset's indices come from
    `sampler` (default: SequentialSampler, or RandomSampler(generator=generator) with
    shuffle=True) grouped by BatchSampler(batch_size, drop_last), or from `batch_sampler`; an
    IterableDataset is batched in the order it yields. Each batch is collate_fn(samples);
    batch_size=None yields the samples one by one, through collate_fn (default_convert)."""

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 generator=None, prefetch_factor=None, persistent_workers=False, multiprocessing_context=None,
                 pin_memory_device="", in_order=True):
        if batch_size is not None and (not isinstance(batch_size, numbers.Integral) or batch_size <= 0):
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        iterable = isinstance(dataset, IterableDataset)
        if iterable:
            for name, value in (("shuffle", shuffle), ("sampler", sampler), ("batch_sampler", batch_sampler)):
                if value not in (None, False):
                    raise ValueError(f"DataLoader with IterableDataset: expected unspecified {name} option, but got "
                                     f"{name}={value}")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
                                 "drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
        if sampler is None and not iterable:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None and not iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset, self.batch_size, self.drop_last, self.shuffle = dataset, batch_size, drop_last, bool(shuffle)
        self.sampler, self.batch_sampler, self.generator = sampler, batch_sampler, generator
        self._auto_collate = batch_size is not None or batch_sampler is not None
        self.collate_fn = collate_fn or (default_collate if self._auto_collate else default_convert)
        self.num_workers = num_workers

    def __iter__(self):
        if self.generator is not None:
            self.generator._torch_draw(2)  # torch's iterator draws its workers' base seed (an int64)
        if isinstance(self.dataset, IterableDataset):
            yield from self._iterable_batches()
        elif self.batch_sampler is not None:
            for indices in self.batch_sampler:
                yield self.collate_fn([self.dataset[i] for i in indices])
        else:
            for i in self.sampler:
                yield self.collate_fn(self.dataset[i])

    def _iterable_batches(self):
        if self.batch_size is None:
            for sample in self.dataset:
                yield self.collate_fn(sample)
            return
        batch = []
        for sample in self.dataset:
            batch.append(sample)
            if len(batch) == self.batch_size:
                yield self.collate_fn(batch)
                batch = []
        if batch and not self.drop_last:
            yield self.collate_fn(batch)

    def __len__(self):
        if isinstance(self.dataset, IterableDataset):
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)
from . import distributed  # noqa: E402,F401  (torch.utils.data.distributed.DistributedSampler)
