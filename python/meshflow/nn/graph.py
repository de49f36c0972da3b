"""meshflow.nn.Graph: a step traced once, compiled for the whole mesh, and run by actors.

As OneFlow's nn.Graph: subclass it, keep modules as attributes, add optimizers, write the
step in build(); the first call traces build with lazy tensors, compiles the logical graph
(whole-graph SBP, explicit boxing, a task graph per rank with a planned memory arena) and
runs it; later calls with the same input metas (shape, dtype, placement, SBP) run the
compiled plan. Module parameters and optimizer state stay shared with eager code: eager
code after a call sees the updated weights, and mf.save / mf.load work as before.

    class TrainStep(mf.nn.Graph):
        def __init__(self, model, opt):
            super().__init__()
            self.model = model
            self.add_optimizer(opt)
        def build(self, x, y):
            loss = F.cross_entropy(self.model(x), y)
            loss.backward()
            return loss

The optimizers' step() runs after build, inside the graph (gradients are not kept after a
call). A step's backward starts from no gradient, whatever eager code left in .grad (which a
call leaves as it was); optimizer state eager steps made is where the graph's steps go on
from, and eager steps after a call go on from the graph's. Buffers a forward changes
(BatchNorm's running statistics, a counter updated in place) take their new values at every
call, as in eager code, and at every micro-batch under gradient accumulation. Set an
optimizer's lr between calls as in eager code: it is read at every run.
Graph mode runs global tensors (placements and SBP). Random ops (rand, randn, dropout)
draw new values at every call, the ones the eager step would draw at the same point.
"""
import collections
import itertools
import linecache
import sys
import traceback

from .. import _C
from .. import _dtype
from .. import sbp as _sbp
from .._autocast import autocast as _autocast
from .._tensor import Tensor, _type_name
from .modules import Module


def _flatten(outputs, flat):
    """Appends the Tensors of build's outputs (a Tensor, or tuples, named tuples, lists and
    dicts of them, nested, with None kept: a model's output dict as OneFlow's graphs return
    it) to flat, in order; returns a function that rebuilds the structure from such a list."""
    if isinstance(outputs, Tensor):
        i = len(flat)
        flat.append(outputs)
        return lambda tensors: tensors[i]
    if outputs is None:
        return lambda tensors: None
    kind = type(outputs)
    if isinstance(outputs, dict):
        items = [(key, _flatten(value, flat)) for key, value in outputs.items()]
        return lambda tensors: kind((key, rebuild(tensors)) for key, rebuild in items)
    if isinstance(outputs, (tuple, list)):
        parts = [_flatten(value, flat) for value in outputs]
        if hasattr(outputs, "_fields"):  # a named tuple
            return lambda tensors: kind(*(rebuild(tensors) for rebuild in parts))
        return lambda tensors: kind(rebuild(tensors) for rebuild in parts)
    raise TypeError(f"build must return Tensors (alone, or in tuples, lists and dicts, or None), got "
                    f"{type(outputs).__name__}")


class GraphConfig:
    """A graph's settings (OneFlow's nn.Graph.config)."""

    def __init__(self):
        self.gradient_accumulation_steps = 1
        self.stages = {}  # module -> stage id
        self.fusion = True
        self.max_compiled = 8
        self.checkpointed = {}  # module -> "full" or "selective"
        self.zero_stage = 0
        self.amp_dtype = None

    def activation_checkpointing(self, module, enabled=True, selective=False):
        """Recomputes `module`'s forward for backward instead of keeping its activations
        (OneFlow's activation_checkpointing; torch.utils.checkpoint for a compiled step).
        The compiler's recompute pass drops what the ops traced inside module's forward keep
        only for backward, and inserts copies of those ops just before the backward ops that
        read them; the memory plan reuses the dropped activations' memory. Random ops draw the
        same values in the recomputation, so results are bitwise those without it.
        `selective=True` recomputes only the cheap ops (elementwise ones, dropout, softmax)
        and keeps what matmuls and attention make, as Megatron's selective recomputation.
        Setting `module.activation_checkpointing = True` (or "selective") on the module does
        the same, as OneFlow's module config does."""
        if not isinstance(module, Module):
            raise TypeError(f"activation_checkpointing takes a meshflow.nn.Module, got {_type_name(module)}")
        if not isinstance(enabled, bool) or not isinstance(selective, bool):
            raise ValueError(f"activation_checkpointing: enabled and selective are bools, got {enabled!r} and "
                             f"{selective!r}")
        if enabled:
            self.checkpointed[module] = "selective" if selective else "full"
        else:
            self.checkpointed.pop(module, None)

    def enable_zero(self, mode=True, *, stage=1):
        """ZeRO for the graph's optimizers (OneFlow's enable_zero): at the next compile each
        one takes `stage` as its zero_stage (mf.optim's; docs/memory.md): 1 shards the
        optimizer state along the data-parallel axes, 2 also the gradients, 3 also the
        parameters, which are gathered where ops use them, in backward again, a use ahead of
        the compute. An optimizer made with that zero_stage already is fine; one with another
        stage, or one that has stepped (enabled after a call), raises. `enable_zero(2)` is `enable_zero(True,
        stage=2)`; `enable_zero(False)` leaves the optimizers as they are."""
        if type(mode) is int:
            mode, stage = mode > 0, mode
        if not isinstance(mode, bool) or type(stage) is not int or stage not in (1, 2, 3) and mode:
            raise ValueError(f"enable_zero takes mode (a bool) and stage 1, 2 or 3, got {mode!r} and {stage!r}")
        self.zero_stage = stage if mode else 0

    def set_max_compiled(self, n):
        """How many compiled plans the graph keeps, one per distinct call (input shapes,
        dtypes, layouts, settings); the least recently used goes first. Each holds its memory
        plan's arena and its transfer threads, so a program whose shapes keep changing (a
        short last batch, variable sequence lengths) must not keep them all. Default 8; the next
        call drops any beyond it."""
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"set_max_compiled takes an int >= 1, got {n!r}")
        self.max_compiled = n

    def enable_fusion(self, on=True):
        """Whether compiling fuses chains of elementwise ops (an activation and what follows
        it, a residual add; a Linear's bias is in its matmul already) into one kernel that
        runs them block of rows by block of rows: the intermediate results stay in cache, and
        those only the chain reads take no memory. On a GPU (and the test device) a chain is
        one kernel launch running the chain's ops element by element, in registers.
        On by default; on the CPU the results are bitwise the same either way, on a GPU those
        of its kernels (each op's math, within a few ulps of the CPU's float32 exp, tanh,
        sigmoid, gelu and silu)."""
        if not isinstance(on, bool):
            raise ValueError(f"enable_fusion takes a bool, got {on!r}")
        self.fusion = on

    def enable_amp(self, mode=True, *, dtype=None):
        """OneFlow's spelling of a step under autocast: build runs as inside `with
        mf.autocast(device_type, dtype)` on the inputs' device type, float16 by default (as
        OneFlow's; bfloat16 too). A call made inside an autocast of its own keeps that one."""
        if not isinstance(mode, bool):
            raise ValueError(f"enable_amp takes a bool, got {mode!r}")
        self.amp_dtype = (_dtype.float16 if dtype is None else _dtype.to_dtype(dtype)) if mode else None

    def set_gradient_accumulation_steps(self, steps):
        """Splits each call's batch into `steps` micro-batches: dim 0 of every argument is cut
        into `steps` equal parts on each rank, forward and backward run on each part, and
        what reads the gradients (clipping, the optimizers) runs once, on their mean. The
        result equals the step on the whole batch (for a loss that is a mean over the
        batch); returned values are averaged over the micro-batches. Buffers the forward
        updates (BatchNorm's running statistics) are updated once per micro-batch, in
        order, as an eager loop over the micro-batches updates them."""
        if not isinstance(steps, int) or isinstance(steps, bool) or steps < 1:
            raise ValueError(f"gradient accumulation steps must be an int >= 1, got {steps!r}")
        self.gradient_accumulation_steps = steps

    def set_stage(self, module, stage_id):
        """Puts the placement of `module`'s parameters at position `stage_id` of the pipeline
        (0 first). Without it, stages follow the order in which the forward pass meets their
        placements, which is what most models need."""
        if not isinstance(stage_id, int) or isinstance(stage_id, bool) or stage_id < 0:
            raise ValueError(f"set_stage: stage_id must be an int >= 0, got {stage_id!r}")
        self.stages[module] = stage_id

    # OneFlow's fusion and algorithm settings: meshflow's compiler fuses elementwise chains
    # (enable_fusion), the optimizers' updates are one op per parameter, and there is no cuDNN
    # search or buffer size to set, so these are accepted and change nothing.
    def allow_fuse_add_to_output(self, mode=True):
        """OneFlow's setting, accepted: it changes nothing here."""

    allow_fuse_model_update_ops = allow_fuse_cast_scale = enable_cudnn_conv_heuristic_search_algo = \
        enable_straighten_algorithm = allow_fuse_add_to_output

    def set_outputs_buffer_size(self, value=2):
        """OneFlow's setting, accepted: it changes nothing here."""

    def _stage_order(self):
        """The named stages' placements, by stage id."""
        by_id = {}
        for module, stage_id in self.stages.items():
            params = list(module.parameters())
            if not params or not params[0].is_global:
                raise ValueError(f"set_stage: {type(module).__name__} has no global parameters to place its stage")
            placement = params[0].placement
            if by_id.setdefault(stage_id, placement) != placement:
                raise ValueError(f"set_stage: stage {stage_id} was given two placements, {by_id[stage_id]} and "
                                 f"{placement}")
        if sorted(by_id) != list(range(len(by_id))):
            raise ValueError(f"set_stage: stage ids must be 0 .. {len(by_id) - 1}, got {sorted(by_id)}")
        return [by_id[i] for i in range(len(by_id))]


class Graph:
    def __init__(self):
        self.config = GraphConfig()
        self._optimizers = []
        self._schedulers = []
        self._grad_scaler = None
        # Call key -> (_C.CompiledGraph, the structure of build's outputs), least recently
        # used first, at most config.max_compiled.
        self._compiled = collections.OrderedDict()
        self._last = None

    def add_optimizer(self, optimizer, *, lr_sch=None, is_sparse=False):
        """Runs optimizer.step() after build, inside the graph, at every call; then, as
        OneFlow's, lr_sch.step() (the next call reads the new lr, as an eager loop's
        `opt.step(); sched.step()`). is_sparse (OneFlow's lazy update of the embedding rows a
        step read) is accepted and changes nothing: every row is updated, as a dense step."""
        if not hasattr(optimizer, "_impl"):  # LBFGS, SparseAdam, a program's own: composed in Python
            raise TypeError("add_optimizer: nn.Graph steps SGD, Adam, AdamW, RMSprop, Adagrad, Adamax, NAdam, RAdam, "
                            f"Adadelta, ASGD and Rprop; {type(optimizer).__name__} steps in eager code only"
                            + (" (its step calls a closure)" if type(optimizer).__name__ == "LBFGS" else ""))
        if lr_sch is not None and getattr(lr_sch, "optimizer", optimizer) is not optimizer:
            raise ValueError("add_optimizer: lr_sch schedules another optimizer; expected a scheduler made on the "
                             "optimizer added with it")
        self._optimizers.append(optimizer)
        if lr_sch is not None:
            self._schedulers.append(lr_sch)

    def set_grad_scaler(self, grad_scaler):
        """OneFlow's loss scaling of a graph, taken where it changes nothing: a GradScaler with
        enabled=False, or steps without float16 autocast (torch's scaler leaves bfloat16
        alone too). A graph does not scale float16 losses nor skip steps whose gradients
        overflowed, so a float16 call raises rather than give other values than the eager
        loop."""
        self._grad_scaler = grad_scaler

    def build(self, *args):
        raise NotImplementedError("subclasses of Graph define build(self, *inputs)")

    def _modules(self):
        return [(name, m) for name, m in vars(self).items() if isinstance(m, Module)]

    @staticmethod
    def _key(args):
        for i, a in enumerate(args):
            if not isinstance(a, Tensor):
                raise TypeError(f"graph input {i} must be a meshflow Tensor; got {_type_name(a)}")
        return tuple((tuple(a.shape), str(a.dtype), str(a.placement), str(a.sbp)) for a in args)

    def __call__(self, *args):
        """Runs the step. Inputs are all global, or all local (a program that placed nothing):
        local inputs, parameters and optimizer state then run as global tensors of this rank
        alone, and the outputs come back local, as OneFlow's nn.Graph runs single-device code.
        A local input beside global ones on one placement is taken as broadcast there (each
        rank's the same value: labels every rank made alike), as eager ops take it; so are
        local inputs alone when the model's parameters are global (on one placement)."""
        if args and not any(isinstance(a, Tensor) and a.is_global for a in args):
            if all(isinstance(a, Tensor) for a in args):
                placements = self._state_placements()
                if placements:
                    return self._run(self._locals_on_the_state_s_placement(args, placements), local=False)
                return self._run([Tensor(_C.as_global_here(a._impl)) for a in args], local=True)
        return self._run(self._locals_replicated(args), local=False)

    def _state_placements(self):
        """The distinct placements of the global parameters and buffers of the graph's modules."""
        found = []
        for _, module in self._modules():
            for t in itertools.chain(module.parameters(), module.buffers()):
                if t.is_global and t.placement not in found:
                    found.append(t.placement)
        return found

    @staticmethod
    def _locals_on_the_state_s_placement(args, placements):
        """Local inputs to a graph of a global model: broadcast on its placement (each rank's the
        same value: the batch every rank made alike), as an eager op takes a local beside a
        global parameter."""
        if len(placements) > 1:
            raise ValueError(f"graph: local inputs to a model on several placements ({placements[0]}, "
                             f"{placements[1]}, ...); expected them converted with to_global, each onto the "
                             "placement of the stage that reads it")
        return [a.to_global(placements[0], [_sbp.broadcast] * len(placements[0].hierarchy)) for a in args]

    @staticmethod
    def _locals_replicated(args):
        if not all(isinstance(a, Tensor) for a in args):
            return args  # _key names what is wrong
        return [Tensor(t) for t in _C.with_local_arguments_replicated([a._impl for a in args])]

    def _run(self, args, local):
        if self.config.amp_dtype is not None and _C.autocast_state()[0] is None:
            device_type = next((a.placement.type if a.is_global else a.device.type for a in args
                                if isinstance(a, Tensor)), "cpu")
            with _autocast(device_type, dtype=self.config.amp_dtype):
                return self._run(args, local)
        if self._grad_scaler is not None and self._grad_scaler.is_enabled() and _C.autocast_state()[0] == "float16":
            raise NotImplementedError("set_grad_scaler: a graph does not scale float16 losses (nor skip steps whose "
                                      "gradients overflow); train it under enable_amp(True, dtype=mf.bfloat16), "
                                      "which needs no scaling, or scale the loss in build and pass "
                                      "GradScaler(enabled=False)")
        # mf.autocast around the call changes what build traces: a plan per setting.
        # So do the modules' training mode (Dropout, BatchNorm's statistics: model.eval()) and
        # the parameters' requires_grad (which ones backward and the optimizers update: a
        # layer frozen for fine-tuning): a change between calls runs a plan of its own, as
        # eager code follows it.
        key = (self._key(args), self.config.gradient_accumulation_steps,
               tuple(sorted((s, id(m)) for m, s in self.config.stages.items())), _C.autocast_state(),
               self.config.fusion, local, tuple(sorted((id(m), how) for m, how in self._checkpointed().items())),
               tuple(m.training for _, module in self._modules() for m in module.modules()),
               tuple(p.requires_grad for _, module in self._modules() for p in module.parameters()),
               self.config.zero_stage)
        if key in self._compiled:
            self._compiled.move_to_end(key)
        else:
            self._compiled[key] = self._compile(args, local)
            while len(self._compiled) > self.config.max_compiled:
                self._compiled.popitem(last=False)  # its arena and threads go with it
        compiled, rebuild = self._compiled[key]
        self._last = compiled
        outputs = [Tensor(_C.to_local(o) if local else o) for o in compiled.run([a._impl for a in args])]
        for sched in self._schedulers:
            sched.step()
        return rebuild(outputs)

    def _compile(self, args, local):
        for opt in self._optimizers:  # before the parameters are added: stage 3 shards them
            opt._impl.take_zero_stage(self.config.zero_stage, "config.enable_zero")
        tracer = _C.GraphTracer()
        tracer.set_local(local)
        tracer.set_micro_batches(self.config.gradient_accumulation_steps)
        tracer.set_stage_order(self.config._stage_order())
        tracer.set_fusion(self.config.fusion)
        for name, module in self._modules():
            for pname, p in module.named_parameters():
                tracer.add_parameter(p._impl, f"{name}.{pname}")
            # Buffers are state too: a forward that updates one (running statistics) writes it
            # back at every run.
            for bname, b in module.named_buffers():
                tracer.add_parameter(b._impl, f"{name}.{bname}")
        for opt in self._optimizers:
            tracer.add_optimizer(opt._impl)
        lazy = [Tensor(tracer.argument(a._impl)) for a in args]
        checkpointed = self._checkpointed()
        for module, how in checkpointed.items():
            object.__setattr__(module, "forward", _checkpointed_forward(tracer, module.forward, how == "selective"))
        try:
            with _C.TraceScope(tracer):
                outputs = self.build(*lazy)
                flat = []
                rebuild = _flatten(outputs, flat)
                for opt in self._optimizers:
                    opt.step()
        except Exception as e:
            tracer.abandon()
            raise _with_build_location(e, type(self).build) from None
        finally:
            for module in checkpointed:
                object.__delattr__(module, "forward")
        return tracer.finish([o._impl for o in flat]), rebuild

    def _checkpointed(self):
        """Module -> "full" or "selective": config.activation_checkpointing's, then the
        modules of the graph that set activation_checkpointing on themselves."""
        found = dict(self.config.checkpointed)
        for _, top in self._modules():
            for module in top.modules():
                how = module.__dict__.get("activation_checkpointing")
                if how in (None, False) or module in found:
                    continue
                if how not in (True, "selective"):
                    raise ValueError(f"{type(module).__name__}.activation_checkpointing must be True, False or "
                                     f"'selective', got {how!r}")
                found[module] = "selective" if how == "selective" else "full"
        for module in found:
            if "forward" in module.__dict__:
                raise ValueError(f"activation_checkpointing: {type(module).__name__} has a forward of its own "
                                 "instance; checkpoint a module whose forward is its class's")
        return found

    def _compiled_last(self):
        if self._last is None:
            raise RuntimeError("the graph has not been compiled yet: call it once first")
        return self._last

    def __repr__(self):
        if self._last is None:
            return f"{type(self).__name__}(not compiled yet)"
        return f"{type(self).__name__}:\n{self._last}"

    def explain(self):
        """For every boxing node of the last compiled plan: the producer's layout, the
        consumer's signature, the bytes, and the cheapest signature that was rejected."""
        return self._compiled_last().explain()

    def to_dot(self, path):
        """Writes the last compiled graph for Graphviz (dot -Tsvg); boxing nodes are orange."""
        with open(path, "w") as f:
            f.write(self._compiled_last().dot())

    def memory_plan(self):
        """This rank's arena against the sum without reuse and the max-live lower bound."""
        return self._compiled_last().memory()

    def registers(self):
        """This rank's registers in the last compiled plan: pipeline stage, slots (regst_num),
        the most slots holding data at once during the last call, bytes per slot."""
        return self._compiled_last().registers()

    def compile_stats(self):
        """The last compiled plan's figures: nodes traced and compiled, boxing nodes and bytes
        (beside eager's choices), fused and folded ops, tasks on this rank, compile_ms, and
        "passes": each compiler pass, in order, as (name, ms)."""
        return self._compiled_last().stats()

    def debug_graph(self, after=None):
        """The last compiled plan's graph as the compiler leaves it after the pass named
        `after` (a name from compile_stats()["passes"]; every pass when None), compiled anew
        from the traced step: one line per node, with its signature or conversion."""
        return self._compiled_last().debug_graph(after or "")


def _checkpointed_forward(tracer, forward, selective):
    """`forward`, its ops traced as one checkpointed region (recompute.h)."""
    def run(*args, **kwargs):
        tracer.begin_checkpoint(selective)
        try:
            return forward(*args, **kwargs)
        finally:
            tracer.end_checkpoint()
    return run


def _with_build_location(error, build):
    """The error, its message extended with the line of build that made the failing call."""
    code = build.__code__
    where = None
    for frame, line in traceback.walk_tb(sys.exc_info()[2]):
        if frame.f_code is code:
            where = (code.co_filename, line)
    if where is None:
        return error
    text = linecache.getline(where[0], where[1]).strip()
    message = f"{error} (while tracing build, {where[0]}:{where[1]}: {text})"
    try:
        return type(error)(message)
    except Exception:
        return error
