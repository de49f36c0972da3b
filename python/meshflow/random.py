"""meshflow.random: torch.random's names for the process's random generator (manual_seed, seed,
initial_seed, get_rng_state, set_rng_state) and fork_rng, which restores the generator's
state when its block ends, as torch's."""
import contextlib

from . import _C
from ._api import initial_seed, seed
from ._ops_creation import get_rng_state, manual_seed, set_rng_state

__all__ = ["manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state", "fork_rng"]


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type="cuda"):
    """Draws inside the block leave the generator where it was before it (torch's fork_rng).
    meshflow has one generator for every device, so `devices` and `device_type` name nothing
    more to save."""
    if not enabled:
        yield
        return
    state = _C.generator_state()
    try:
        yield
    finally:
        _C.set_generator_state(*state)
