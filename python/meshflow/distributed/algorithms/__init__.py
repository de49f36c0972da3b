"""torch.distributed.algorithms: the DDP communication hooks (ddp_comm_hooks) and Join."""
from . import ddp_comm_hooks  # noqa: F401
from .join import Join, Joinable  # noqa: F401
