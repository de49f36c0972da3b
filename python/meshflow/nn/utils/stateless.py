"""torch.nn.utils.stateless: functional_call, torch's older home of torch.func.functional_call."""
from ...func import functional_call  # noqa: F401

__all__ = ["functional_call"]
