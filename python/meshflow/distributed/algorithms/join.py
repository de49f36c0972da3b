"""torch.distributed.algorithms.join: the generic context for training on uneven inputs.

`with Join([ddp_model]):` is `with ddp_model.join():` (DistributedDataParallel.join shadows
the steps of the ranks that still have inputs on those whose loop has ended). Here the
joinables are DistributedDataParallel modules, one per context: a second would need its
steps shadowed while the first's are, which this does not do, so it is refused rather than
left to hang.
"""


class Joinable:
    """torch's base of what Join takes: something with a join() context (here
    DistributedDataParallel)."""


class Join:
    """torch's Join(joinables, enable=True, throw_on_early_termination=False, **kwargs);
    kwargs are the joinables' (divide_by_initial_world_size for DistributedDataParallel)."""

    def __init__(self, joinables, enable=True, throw_on_early_termination=False, **kwargs):
        from ...nn.parallel import DistributedDataParallel
        joinables = list(joinables)
        if not joinables:
            raise ValueError("Join: the joinables should include at least one Joinable")
        for j in joinables:
            if not isinstance(j, DistributedDataParallel):
                raise NotImplementedError(f"Join: only DistributedDataParallel modules can join here, got "
                                          f"{type(j).__name__} (ZeroRedundancyOptimizer's steps are not shadowed)")
        if len(joinables) > 1:
            raise NotImplementedError(f"Join: one DistributedDataParallel module per context, got {len(joinables)}")
        self._context = joinables[0].join(enable=enable, throw_on_early_termination=throw_on_early_termination,
                                           **kwargs)

    def __enter__(self):
        return self._context.__enter__()

    def __exit__(self, *exc):
        return self._context.__exit__(*exc)


__all__ = ["Join", "Joinable"]
