"""torch.distributed.algorithms.join: the generic context for training on uneven inputs.

`with Join([ddp_model]):` is `with ddp_model.join():` (DistributedDataParallel.join shadows
the steps of the ranks that still have inputs on those whose loop has ended). Here the
joinables are one DistributedDataParallel module (its forward tells the ranks which still
step) and any ZeroRedundancyOptimizers over it, whose steps a joined rank shadows too, after
the gradients' average (torch's join hooks: the optimizer's step, whose broadcasts the others
make). A second DistributedDataParallel module would need its steps shadowed while the
first's are, which this does not do, so it is refused rather than left to hang.
"""


class Joinable:
    """torch's base of what Join takes: something with a join() context (here
    DistributedDataParallel)."""


class Join:
    """torch's Join(joinables, enable=True, throw_on_early_termination=False, **kwargs);
    kwargs are the joinables' (divide_by_initial_world_size for DistributedDataParallel)."""

    def __init__(self, joinables, enable=True, throw_on_early_termination=False, **kwargs):
        from ...nn.parallel import DistributedDataParallel
        from ..optim import ZeroRedundancyOptimizer
        joinables = list(joinables)
        if not joinables:
            raise ValueError("Join: the joinables should include at least one Joinable")
        for j in joinables:
            if not isinstance(j, (DistributedDataParallel, ZeroRedundancyOptimizer)):
                raise NotImplementedError(f"Join: only DistributedDataParallel modules and ZeroRedundancyOptimizers can "
                                          f"join here, got {type(j).__name__}")
        models = [j for j in joinables if isinstance(j, DistributedDataParallel)]
        if len(models) != 1:
            raise NotImplementedError(f"Join: one DistributedDataParallel module per context (its forward tells the "
                                      f"ranks which still step), got {len(models)}")
        steps = [j.step for j in joinables if isinstance(j, ZeroRedundancyOptimizer)]
        self._context = models[0]._joined(steps, kwargs.get("divide_by_initial_world_size", True), enable,
                                          throw_on_early_termination)

    def __enter__(self):
        return self._context.__enter__()

    def __exit__(self, *exc):
        return self._context.__exit__(*exc)


__all__ = ["Join", "Joinable"]
