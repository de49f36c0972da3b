"""torch.utils.data.dataloader's names, for programs that import them from there."""
from . import BatchSampler, DataLoader, Dataset, IterableDataset, RandomSampler, Sampler, SequentialSampler  # noqa: F401
from . import default_collate, default_convert, get_worker_info  # noqa: F401

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]
