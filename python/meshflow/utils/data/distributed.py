"""torch.utils.data.distributed's spelling."""
from . import DistributedSampler  # noqa: F401
