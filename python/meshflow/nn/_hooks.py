"""Module hooks, as torch's: forward pre-hooks and forward hooks (`with_kwargs`, `prepend`,
`always_call`), full backward hooks and backward pre-hooks, each registration returning a
RemovableHandle; and torch's global hooks (torch.nn.modules.module.register_module_*), which
every module runs before its own.

A module's call runs its pre-hooks (which may replace the arguments), forward, then its
forward hooks (which may replace the output). Backward hooks follow torch's BackwardHook: the
tensors among the positional arguments that require grad, and the tensors of the output, pass
through identity autograd Functions; the output's one sees grad_output first (backward
pre-hooks may replace it), the inputs' one then calls hook(module, grad_input, grad_output),
which may replace grad_input. When no input requires grad, the hooks are called with
grad_input all None when grad_output is known, as torch's.

Hooks are plain Python state of one module (the global ones of the process); not
thread-safe beyond what a module is.
"""
import collections
import itertools
import types
import warnings

from .. import _C
from .._function import Function
from .._tensor import Tensor

_ids = itertools.count()
TABLES = ("_forward_pre_hooks", "_forward_hooks", "_backward_pre_hooks", "_backward_hooks")


class RemovableHandle:
    """What a hook registration returns: remove() unregisters the hook (also as a context
    manager's exit), as torch.utils.hooks.RemovableHandle; the hook's entry leaves each of
    `tables` (a hook table, and any table of what is kept beside it)."""

    def __init__(self, *tables):
        self._tables, self.id = tables, next(_ids)

    def remove(self):
        for table in self._tables:
            table.pop(self.id, None)
        self._tables = ()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def table(module, table_name):
    """The module's table `table_name` (handle id -> hook, as torch's OrderedDict), made
    when first asked for."""
    found = module.__dict__.get(table_name)
    if found is None:
        found = collections.OrderedDict()
        object.__setattr__(module, table_name, found)
    return found


def register(module, table_name, hook, prepend=False, **flags):
    """Adds `hook` to the module's table `table_name` and returns its handle. The table holds
    the hook itself, as torch's (pruning and user code read it); its flags (with_kwargs,
    always_call) are kept by handle id in the module's _hook_flags."""
    if not callable(hook):
        raise TypeError(f"{table_name[1:-1].replace('_', ' ')} must be callable, got {type(hook).__name__}")
    hooks, kept = table(module, table_name), table(module, "_hook_flags")
    handle = RemovableHandle(hooks, kept)
    hooks[handle.id] = hook
    if any(flags.values()):
        kept[handle.id] = flags
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


# The global hooks' tables, as a module's are held (register() takes it as the module).
_GLOBAL = types.SimpleNamespace(**{name: collections.OrderedDict() for name in TABLES + ("_hook_flags",)})
_g1, _g2, _g3, _g4 = (_GLOBAL.__dict__[name] for name in TABLES)


def has_hooks(module):
    # spelled out, not any() over TABLES: it runs at every module call
    d = module.__dict__
    return bool(d.get("_forward_pre_hooks") or d.get("_forward_hooks") or d.get("_backward_pre_hooks")
                or d.get("_backward_hooks") or _g1 or _g2 or _g3 or _g4)


_NO_FLAGS = {}


def own(module, table_name):
    """(hook, flags) of the module's own table `table_name` (no global ones), a list: a hook
    may register or remove others while they run."""
    flags = module.__dict__.get("_hook_flags", _NO_FLAGS)
    return [(hook, flags.get(key, _NO_FLAGS)) for key, hook in module.__dict__.get(table_name, _NO_FLAGS).items()]


def _hooks(module, table_name):
    """(hook, flags) of the global hooks then the module's, in their order."""
    return own(_GLOBAL, table_name) + own(module, table_name)


def register_module_forward_pre_hook(hook):
    """torch.nn.modules.module's: hook(module, args) before every module's forward."""
    return register(_GLOBAL, "_forward_pre_hooks", hook)


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    """torch.nn.modules.module's: hook(module, args, output) after every module's forward."""
    return register(_GLOBAL, "_forward_hooks", hook, with_kwargs=with_kwargs, always_call=always_call)


def register_module_full_backward_pre_hook(hook):
    return register(_GLOBAL, "_backward_pre_hooks", hook)


def register_module_full_backward_hook(hook):
    return register(_GLOBAL, "_backward_hooks", hook)


def _run_pre_hooks(module, args, kwargs):
    for hook, flags in _hooks(module, "_forward_pre_hooks"):
        if flags.get("with_kwargs"):
            result = hook(module, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                                       f"but got {result}.")
                args, kwargs = result
        else:
            result = hook(module, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
    return args, kwargs


def _run_forward_hooks(module, args, kwargs, output, only_always=False):
    for hook, flags in _hooks(module, "_forward_hooks"):
        if only_always and not flags.get("always_call"):
            continue
        result = hook(module, args, kwargs, output) if flags.get("with_kwargs") else hook(module, args, output)
        if result is not None:
            output = result
    return output


def call(module, args, kwargs):
    """module(*args, **kwargs) with its hooks."""
    args, kwargs = _run_pre_hooks(module, args, kwargs)
    backward = _BackwardHooks(module) if (_hooks(module, "_backward_hooks") or _hooks(module, "_backward_pre_hooks")) \
        and _C.grad_enabled() else None
    if backward is not None:
        args = backward.wrap_inputs(args)
    try:
        output = module.forward(*args, **kwargs)
    except Exception:
        try:  # torch calls these with output None and silences what they raise: forward's error goes on
            _run_forward_hooks(module, args, kwargs, None, only_always=True)
        except Exception as e:
            warnings.warn(f"forward hook with ``always_call=True`` raised an exception that was silenced as "
                          f"another error was raised in forward: {e}")
        raise
    output = _run_forward_hooks(module, args, kwargs, output)
    if backward is not None:
        output = backward.wrap_outputs(output)
    return output


class _Identity(Function):
    """Passes tensors through unchanged; its backward hands the gradients to `ctx.on_grads`,
    which may replace them."""

    @staticmethod
    def forward(ctx, on_grads, *tensors):
        ctx.on_grads = on_grads
        return tensors

    @staticmethod
    def backward(ctx, *grads):
        return (None,) + tuple(ctx.on_grads(grads))


class _BackwardHooks:
    """One call's backward hooks: grad_output seen at the outputs, grad_input at the inputs."""

    def __init__(self, module):
        self.module = module
        self.grad_output = None
        self.n_inputs = 0
        self.inputs_need_grad = False

    def wrap_inputs(self, args):
        positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        self.n_inputs = len(positions)
        self.input_positions = [i for i in positions if args[i].requires_grad]
        self.inputs_need_grad = bool(self.input_positions)
        if not self.inputs_need_grad:
            return args
        wrapped = _Identity.apply(self._on_input_grads, *(args[i] for i in self.input_positions))
        args = list(args)
        for i, t in zip(self.input_positions, wrapped):
            args[i] = t
        self.positions = positions
        return tuple(args)

    def wrap_outputs(self, output):
        single = isinstance(output, Tensor)
        items = [output] if single else list(output) if isinstance(output, (tuple, list)) else None
        if items is None:
            return output
        positions = [i for i, t in enumerate(items) if isinstance(t, Tensor) and t.requires_grad]
        if not positions:
            return output
        wrapped = _Identity.apply(self._on_output_grads, *(items[i] for i in positions))
        for i, t in zip(positions, wrapped):
            items[i] = t
        return items[0] if single else type(output)(items)

    def _on_output_grads(self, grads):
        grads = tuple(grads)
        for hook, _ in _hooks(self.module, "_backward_pre_hooks"):
            result = hook(self.module, grads)
            if result is not None:
                grads = _checked("backward pre-hook", result, len(grads))
        self.grad_output = grads
        if not self.inputs_need_grad:
            self._call_hooks((None,) * self.n_inputs)
        return grads

    def _on_input_grads(self, grads):
        grad_input = [None] * self.n_inputs
        slots = [self.positions.index(i) for i in self.input_positions]
        for slot, g in zip(slots, grads):
            grad_input[slot] = g
        grad_input = self._call_hooks(tuple(grad_input))
        return [grad_input[slot] for slot in slots]

    def _call_hooks(self, grad_input):
        grad_output = self.grad_output if self.grad_output is not None else ()
        for hook, _ in _hooks(self.module, "_backward_hooks"):
            result = hook(self.module, grad_input, grad_output)
            if result is not None:
                grad_input = _checked("backward hook", result, len(grad_input))
        return grad_input


def _checked(kind, result, n):
    result = tuple(result) if isinstance(result, (tuple, list)) else (result,)
    if len(result) != n:
        raise RuntimeError(f"{kind} returned {len(result)} gradients; expected {n} (one per tensor, or None)")
    return result
