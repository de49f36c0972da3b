"""torch.utils.data.dataset's names, for programs that import them from there."""
from . import ChainDataset, ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split  # noqa: F401

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ConcatDataset", "ChainDataset", "Subset", "random_split"]
