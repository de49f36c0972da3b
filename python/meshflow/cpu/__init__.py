"""meshflow.cpu: torch.cpu's names (amp; the host is meshflow's first device)."""
from . import amp

__all__ = ["amp"]
