"""torch.distributed.elastic's names that launched scripts import. meshflow's launcher starts
the ranks through mpirun and restarts none, so only what a script itself calls is here."""
from . import multiprocessing  # noqa: F401
