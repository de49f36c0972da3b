"""torch.distributed.elastic.multiprocessing: the `errors` module scripts import `record` from."""
from . import errors  # noqa: F401
