"""torch.distributed.nn: collectives that record their gradient (functional)."""
from . import functional  # noqa: F401
