"""torch.distributed.optim: ZeroRedundancyOptimizer, ZeRO stage 1 for DDP programs (local
tensors). For global tensors meshflow's optimizers take zero_stage= (docs/memory.md), which
shards the state as an SBP instead."""
import numpy as _np

from ...optim import Optimizer as _Optimizer

__all__ = ["ZeroRedundancyOptimizer"]


class ZeroRedundancyOptimizer(_Optimizer):
    """`optimizer_class` over `params`, its state sharded over the ranks of `process_group`,
    as torch's: each parameter is owned by one rank (the largest first, each to the rank that
    owns the fewest elements so far), each rank keeps the state of and steps the parameters it
    owns, then every parameter is broadcast from its owner. With DDP's averaged gradients the
    parameters are those of `optimizer_class` over all of them, on every rank."""

    def __init__(self, params, optimizer_class, process_group=None, parameters_as_bucket_view=False,
                 overlap_with_ddp=False, **defaults):
        from .. import _require_initialized, _state
        _require_initialized("ZeroRedundancyOptimizer")
        if overlap_with_ddp:
            raise NotImplementedError("ZeroRedundancyOptimizer(overlap_with_ddp=True) is not supported: meshflow's "
                                      "DDP averages the gradients when backward returns")
        super().__init__(params, defaults)
        self.process_group = process_group if process_group is not None else _state["world"]
        self._optimizer_class, self._consolidated = optimizer_class, None
        owned = [0] * self.process_group.size()
        self._owner = {}
        for group in self.param_groups:
            for p in sorted(group["params"], key=lambda t: t.numel(), reverse=True):
                rank = owned.index(min(owned))
                self._owner[id(p)] = rank
                owned[rank] += p.numel()
        me = self.process_group.rank()
        # (this rank's groups, the index in param_groups of each)
        self._kept = [i for i, g in enumerate(self.param_groups) if any(self._owner[id(p)] == me for p in g["params"])]
        local = [{**self.param_groups[i], "params": [p for p in self.param_groups[i]["params"]
                                                     if self._owner[id(p)] == me]} for i in self._kept]
        self.optim = optimizer_class(local, **defaults) if local else None

    def _params(self):
        return [p for g in self.param_groups for p in g["params"]]

    def _mine(self):
        me = self.process_group.rank()
        return [p for p in self._params() if self._owner[id(p)] == me]

    def step(self, closure=None):
        """This rank's parameters' step (with the options param_groups hold now: a
        scheduler's lr), then every parameter from its owner."""
        loss = None
        if self.optim is not None:
            for i, local in zip(self._kept, self.optim.param_groups):
                for key, value in self.param_groups[i].items():
                    if key != "params":
                        local[key] = value
            loss = self.optim.step(closure)
        elif closure is not None:
            from ...autograd import enable_grad
            with enable_grad():
                loss = closure()
        from ...nn.parallel import _broadcast
        params = self._params()
        for rank, src in enumerate(self.process_group.ranks):
            _broadcast([p for p in params if self._owner[id(p)] == rank], src, self.process_group)
        return loss

    def consolidate_state_dict(self, to=0):
        """Gathers every rank's share of the state on rank `to` (every rank calls it), for
        state_dict() there."""
        from .. import gather_object
        index = {id(p): i for i, p in enumerate(self._params())}
        mine = {}
        if self.optim is not None:
            local = self.optim.state_dict()["state"]
            for i, p in enumerate(self._mine()):
                if i in local:
                    mine[index[id(p)]] = {k: (v.numpy() if hasattr(v, "numpy") else v) for k, v in local[i].items()}
        every = [None] * self.process_group.size() if self.process_group.ranks.index(to) == self.process_group.rank() else None
        gather_object(mine, every, dst=to)
        self._consolidated = None
        if every is not None:
            from ... import tensor
            self._consolidated = {i: {k: (tensor(v) if isinstance(v, _np.ndarray) else v) for k, v in s.items()}
                                  for part in every for i, s in part.items()}

    def state_dict(self):
        """The whole state, on the rank consolidate_state_dict gathered it to (torch's
        structure: state by parameter index, param_groups with the indices)."""
        if self._consolidated is None:
            raise RuntimeError("Optimizer state has not been consolidated on this rank. Please call "
                               "`consolidate_state_dict(to)` on all ranks beforehand if you meant to save the "
                               "global state.")
        groups, at = [], 0
        for g in self.param_groups:
            groups.append({**{k: v for k, v in g.items() if k != "params"},
                           "params": list(range(at, at + len(g["params"])))})
            at += len(g["params"])
        return {"state": dict(sorted(self._consolidated.items())), "param_groups": groups}

    def load_state_dict(self, state_dict):
        """Every rank takes the options, and the state of the parameters it owns."""
        for saved, group in zip(state_dict["param_groups"], self.param_groups):
            group.update({k: v for k, v in saved.items() if k != "params"})
        if self.optim is None:
            return
        index = {id(p): i for i, p in enumerate(self._params())}
        state = {int(k): v for k, v in state_dict["state"].items()}
        local = self.optim.state_dict()
        for i, local_group in zip(self._kept, local["param_groups"]):
            local_group.update({k: v for k, v in self.param_groups[i].items() if k != "params"})
        local["state"] = {i: state[index[id(p)]] for i, p in enumerate(self._mine()) if index[id(p)] in state}
        self.optim.load_state_dict(local)
