"""Modules: parameters, submodules, state_dict, train/eval, and layouts over a mesh.

Modules are built with local parameters whose values come from the counter-based generator,
so every rank builds the same weights; `module.to_global(placement, sbp)` then gives each
parameter its placement and SBP (each rank keeps its part). Choosing the SBPs is how a user
picks data, tensor (column / row) or hybrid parallelism.
"""
import collections
import math
import operator

from .. import _C
from .. import _device, _dtype
from .._tensor import Tensor, _impl_of, _in_layout_of, _names_dtype, _type_name, _zero_grads, no_grad
from .._ops_creation import ones, rand, randn, zeros
from .._ops_elementwise import cast
from .._promotion import get_default_dtype
from .. import sbp as _sbp
from ..sbp import as_nd_sbp as _as_nd_sbp
from . import functional as F
from . import _hooks


class Parameter(Tensor):
    """A tensor that a module owns and trains: a leaf that requires grad."""

    __slots__ = ()

    def __init__(self, data, requires_grad=True):
        super().__init__(_impl_of("Parameter", data).detach())
        self.requires_grad = requires_grad

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()  # torch's


class Buffer(Tensor):
    """torch 2's nn.Buffer: a tensor that, assigned to a module attribute, registers as a
    buffer (persistent: in state_dict), as module.register_buffer does."""

    __slots__ = ("persistent",)

    def __init__(self, data=None, *, persistent=True):
        from .._ops_creation import empty
        data = empty(0) if data is None else data
        super().__init__(_impl_of("Buffer", data).detach())
        self.requires_grad = data.requires_grad
        self.persistent = persistent


class _StateDictError(RuntimeError, KeyError):
    """load_state_dict's key errors: a RuntimeError as torch raises, and a KeyError as
    meshflow raised before (callers catching either keep working)."""

    def __str__(self):  # KeyError's str would quote the message
        return RuntimeError.__str__(self)


class _ShapeError(RuntimeError, ValueError):
    """load_state_dict's shape mismatch: torch's RuntimeError, meshflow's earlier ValueError."""


class _IncompatibleKeys(collections.namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """load_state_dict's result, printed as torch's."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _is_floating(t):
    return t.dtype.name.startswith(("float", "bfloat"))


def _add_indent(text, spaces):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


def _check_name(kind, name):
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string, got {_type_name(name)}")
    if not name or "." in name:
        raise KeyError(f"{kind} name {name!r} is empty or has a '.'; expected a name without '.' (names join "
                       "with '.' in state_dict)")


class Module:
    """Base class of layers and models, shaped like torch.nn.Module: parameters, buffers and
    submodules registered by assignment (or register_*), each table in registration order."""

    def __init__(self):
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", collections.OrderedDict())
        object.__setattr__(self, "_buffers", collections.OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", collections.OrderedDict())

    # Registration.
    def register_parameter(self, name, param):
        """Registers `param` (a Parameter, or None for an absent one) as `name`."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name("parameter", name)
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_type_name(param)}' object to parameter '{name}' "
                            "(meshflow.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Registers `tensor` (or None) as the buffer `name`: state that is no parameter (a
        running mean), in state_dict when `persistent`, moved by to() and to_global()."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        _check_name("buffer", name)
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_type_name(tensor)}' object to buffer '{name}' "
                            "(meshflow Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        """Registers `module` (or None) as the submodule `name`."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_type_name(module)} is not a Module subclass")
        _check_name("module", name)
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        self._modules[name] = module

    register_module = add_module

    def get_submodule(self, target):
        module = self
        for item in target.split(".") if target else ():
            if not isinstance(module._modules.get(item), Module):
                raise AttributeError(f"{type(module).__name__} has no attribute `{item}`")
            module = module._modules[item]
        return module

    def set_submodule(self, target, module, strict=False):
        """Replaces the submodule at the dotted path `target` (its parent must exist; with strict
        the submodule itself too), as torch's."""
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {type(module).__name__}")
        parent_path, _, name = target.rpartition(".")
        parent = self.get_submodule(parent_path)
        if strict and not isinstance(parent._modules.get(name), Module):
            raise AttributeError(f"{type(parent).__name__} has no attribute `{name}`")
        setattr(parent, name, module)

    def get_parameter(self, target):
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if name not in module._parameters:
            raise AttributeError(f"{type(module).__name__} has no parameter `{name}`")
        return module._parameters[name]

    def get_buffer(self, target):
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if name not in module._buffers:
            raise AttributeError(f"{type(module).__name__} has no buffer `{name}`")
        return module._buffers[name]

    def __setattr__(self, name, value):
        """As torch: a Parameter or Module registers; a name already registered keeps its kind
        (None is allowed for each; a buffer takes any Tensor); anything else is a plain
        attribute."""
        params = self.__dict__.get("_parameters")
        if params is None:  # before Module.__init__: plain attributes only, as torch
            if isinstance(value, (Parameter, Module)):
                kind = "parameter" if isinstance(value, Parameter) else "module"
                raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
            object.__setattr__(self, name, value)
            return
        if isinstance(value, Parameter):
            self._remove_from(name, keep="_parameters")
            self.register_parameter(name, value)
        elif isinstance(value, Buffer):  # registered as the plain tensor it holds, as torch's
            self._remove_from(name, keep="_buffers")
            self.register_buffer(name, Tensor(value._impl), persistent=value.persistent)
        elif name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_name(value)}' as parameter '{name}' "
                                "(meshflow.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            self._remove_from(name, keep="_modules")
            self._modules[name] = value
        elif name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_name(value)}' as child module '{name}' "
                                "(meshflow.nn.Module or None expected)")
            self._modules[name] = value
        elif name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{_type_name(value)}' as buffer '{name}' "
                                "(meshflow Tensor or None expected)")
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _remove_from(self, name, keep):
        # A plain attribute of this name (bias = None) would hide the table entry from
        # __getattr__.
        self.__dict__.pop(name, None)
        for table in ("_parameters", "_buffers", "_modules"):
            if table != keep:
                self.__dict__[table].pop(name, None)
        self._non_persistent_buffers_set.discard(name)

    def __getattr__(self, name):
        for table in ("_parameters", "_buffers", "_modules"):
            entries = self.__dict__.get(table, {})
            if name in entries:
                return entries[name]
        if name in _hooks.TABLES:  # every module has its (empty) hook tables, as torch's
            return _hooks.table(self, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for table in ("_parameters", "_buffers", "_modules"):
            if name in self.__dict__.get(table, {}):
                del self.__dict__[table][name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._buffers) | set(self._modules))

    def __deepcopy__(self, memo):
        """copy.deepcopy, as torch's: a module tree of its own whose parameters (with their
        requires_grad and grad) and buffers are copies of these, on the same device or
        placement. A tensor shared by two modules stays shared in the copy."""
        import copy
        for module in self.modules():  # tensors: parameters, buffers and plain attributes
            tables = [module.__dict__["_parameters"], module.__dict__["_buffers"], module.__dict__]
            for t in (t for table in tables for t in table.values()):
                if isinstance(t, Tensor) and id(t) not in memo:
                    memo[id(t)] = _copy_tensor(t)
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        for name, value in self.__dict__.items():
            object.__setattr__(new, name, copy.deepcopy(value, memo))
        return new

    def __call__(self, *args, **kwargs):
        if _hooks.has_hooks(self):
            return _hooks.call(self, args, kwargs)
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} does not define forward()")

    # Hooks (nn/_hooks.py), as torch's; each returns a handle whose remove() unregisters it.
    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """hook(module, args) (with_kwargs: hook(module, args, kwargs)) before forward; what it
        returns, if not None, replaces the arguments."""
        return _hooks.register(self, "_forward_pre_hooks", hook, prepend, with_kwargs=with_kwargs)

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """hook(module, args, output) (with_kwargs: hook(module, args, kwargs, output)) after
        forward; what it returns, if not None, replaces the output."""
        return _hooks.register(self, "_forward_hooks", hook, prepend, with_kwargs=with_kwargs,
                               always_call=always_call)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """hook(module, grad_output) when the output's gradients are known; may replace them."""
        return _hooks.register(self, "_backward_pre_hooks", hook, prepend)

    def register_full_backward_hook(self, hook, prepend=False):
        """hook(module, grad_input, grad_output) when the gradients of the tensor arguments
        are known; what it returns, if not None, replaces grad_input."""
        return _hooks.register(self, "_backward_hooks", hook, prepend)

    # torch's deprecated spelling; it is called as the full hook (docs/porting.md).
    register_backward_hook = register_full_backward_hook

    # Traversal.
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """(name, module) for this module (named `prefix`) and every module under it, parents
        first; a module reachable twice is listed once unless remove_duplicate is False."""
        if memo is None:
            memo = set()
        if remove_duplicate:
            if id(self) in memo:
                return
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                yield from module.named_modules(memo, f"{prefix}.{name}" if prefix else name, remove_duplicate)

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in seen:
                seen.add(id(module))
                yield name, module

    def children(self):
        for _, m in self.named_children():
            yield m

    def _named_members(self, table, prefix, recurse, remove_duplicate):
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [(prefix, self)]
        for module_name, module in modules:
            for name, value in module.__dict__[table].items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield (f"{module_name}.{name}" if module_name else name), value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """(name, parameter) pairs, names as in state_dict, in registration order; a parameter
        shared by two modules (tied weights) is listed once."""
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def apply(self, fn):
        """Calls fn on every submodule (children first), then on this module; returns self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def compile(self, *args, **kwargs):
        """torch's in-place Module.compile(): the module runs eagerly, so nothing changes (its
        state_dict names stay; mf.compile(module) wraps it instead, as torch.compile)."""

    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        object.__setattr__(self, "training", mode)
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Drops every parameter's gradient (set_to_none=False: zeroes it in place instead)."""
        _zero_grads(self.parameters(), set_to_none)

    # State. torch's extension points are kept: _save_to_state_dict and get_extra_state when
    # saving, _load_from_state_dict and set_extra_state when loading, and the hooks of both.
    _version = 1

    def state_dict(self, destination=None, prefix="", keep_vars=False):
        """Name -> value of every parameter and persistent buffer: each module's parameters,
        then its buffers, then its extra state (`prefix + "_extra_state"`, where the module
        defines get_extra_state), then its submodules', as torch orders them; a tensor
        registered twice (tied weights) is listed under each name, as torch's. Values are
        detached (sharing memory) unless keep_vars; global tensors stay global. Each module
        runs its state_dict pre-hooks before its entries and its post hooks after its
        submodules'; `_metadata` holds every module's `_version` under its prefix, as torch's
        (old-checkpoint converters read it)."""
        if destination is None:
            destination = collections.OrderedDict()
            destination._metadata = collections.OrderedDict()
        metadata = getattr(destination, "_metadata", None)
        local_metadata = {"version": self._version}
        if metadata is not None:
            metadata[prefix[:-1]] = local_metadata
        for hook, _ in _hooks.own(self, "_state_dict_pre_hooks"):
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook, flags in _hooks.own(self, "_state_dict_hooks"):
            result = hook(self, destination, prefix, local_metadata)
            if result is not None and not flags.get("post"):  # the old hooks may return a new dict
                destination = result
        return destination

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        """This module's own entries (not its submodules'), as torch's hook for subclasses."""
        for table in ("_parameters", "_buffers"):
            for key, value in self.__dict__[table].items():
                if value is not None and not (table == "_buffers" and key in self._non_persistent_buffers_set):
                    destination[prefix + key] = value if keep_vars else value.detach()
        if type(self).get_extra_state is not Module.get_extra_state:
            destination[prefix + "_extra_state"] = self.get_extra_state()

    def get_extra_state(self):
        """State beside the tensors (a counter, a config), saved in state_dict where a
        subclass defines it, as torch's."""
        raise RuntimeError("Reached a code path in Module.get_extra_state() that should never be called; define "
                           "get_extra_state() in the module to save extra state in its state_dict")

    def set_extra_state(self, state):
        """Takes back what get_extra_state gave, as torch's."""
        raise RuntimeError("Reached a code path in Module.set_extra_state() that should never be called; define "
                           "set_extra_state() in the module to load extra state from its state_dict")

    def register_state_dict_pre_hook(self, hook):
        """hook(module, prefix, keep_vars) before the module's entries are saved."""
        return _hooks.register(self, "_state_dict_pre_hooks", hook)

    def register_state_dict_post_hook(self, hook):
        """hook(module, state_dict, prefix, local_metadata) after the module's entries (and its
        submodules') are saved; it may change state_dict in place."""
        return _hooks.register(self, "_state_dict_hooks", hook, post=True)

    def _register_state_dict_hook(self, hook):
        """torch's older post hook: what it returns, if not None, becomes the state_dict."""
        return _hooks.register(self, "_state_dict_hooks", hook)

    def register_load_state_dict_pre_hook(self, hook):
        """hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs) before anything is loaded; it may change state_dict (the
        copy being loaded) in place."""
        return _hooks.register(self, "_load_state_dict_pre_hooks", hook, with_module=True)

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        """torch's private spelling: hook(state_dict, prefix, ...) unless with_module."""
        return _hooks.register(self, "_load_state_dict_pre_hooks", hook, with_module=with_module)

    def register_load_state_dict_post_hook(self, hook):
        """hook(module, incompatible_keys) after loading, children's first; it may edit the
        missing and unexpected keys in place (strict then judges what is left), as torch's."""
        return _hooks.register(self, "_load_state_dict_post_hooks", hook)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        """torch's extension point, called on every module (parents first) with the copy of
        the state_dict being loaded, before any value is: an override may rename or convert
        its entries (an old checkpoint's names) and then call this one, which runs the
        module's load pre-hooks and hands `prefix + "_extra_state"` to set_extra_state.
        load_state_dict then loads the values of all modules together (all or nothing)."""
        for hook, flags in _hooks.own(self, "_load_state_dict_pre_hooks"):
            args = (state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
            hook(self, *args) if flags.get("with_module") else hook(*args)
        if type(self).set_extra_state is not Module.set_extra_state:
            if prefix + "_extra_state" in state_dict:
                self.set_extra_state(state_dict.pop(prefix + "_extra_state"))
            elif strict:
                missing_keys.append(prefix + "_extra_state")

    def _state_entries(self, prefix=""):
        """(name, owning module, table, key) of every state_dict entry: a tensor or module
        reachable by several paths is listed under each."""
        entries = []
        for module_name, module in self.named_modules(prefix=prefix.rstrip("."), remove_duplicate=False):
            path = module_name + "." if module_name else ""
            for table in ("_parameters", "_buffers"):
                for key, value in module.__dict__[table].items():
                    if value is None or (table == "_buffers" and key in module._non_persistent_buffers_set):
                        continue
                    entries.append((path + key, module, table, key))
        return entries

    def _run_load_post_hooks(self, incompatible, prefix=""):
        for name, module in self._modules.items():
            if module is not None:
                module._run_load_post_hooks(incompatible, prefix + name + ".")
        for hook, _ in _hooks.own(self, "_load_state_dict_post_hooks"):
            if hook(self, incompatible) is not None:
                raise RuntimeError("Hooks registered with ``register_load_state_dict_post_hook`` are not expected "
                                   "to return new values, if incompatible_keys need to be modified, it should be "
                                   "done inplace.")

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copies values into the parameters and persistent buffers, converting each to the
        target's layout and dtype (as torch's copy_: a float64 checkpoint loads into a float32
        model). Returns (missing_keys, unexpected_keys).

        First every module's _load_from_state_dict (and so its load pre-hooks) sees a copy of
        state_dict, parents first, as torch's; overrides that rename an old checkpoint's keys
        work unchanged. Then all or nothing, as the C++ Module: every entry is checked and
        converted before any value changes, so an error leaves the module's tensors as they
        were. Load post-hooks (children's first) run after the values are loaded and may edit
        the missing and unexpected keys in place; where a module has any, strict judges what
        they leave, after loading, as torch's.

        Tied weights may come under any of their names: one that is absent is not missing
        when another name of the same tensor is given (unlike torch), so a state_dict listing
        them once (Hugging Face files, meshflow's before it listed every name) loads strictly.

        assign=True (torch's): the given tensors become the parameters and buffers (not copied
        into them), with their own dtype, device or layout (a parameter keeps the module's
        requires_grad), under every name of a tied tensor."""
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = collections.OrderedDict(state_dict)
        missing, unexpected, error_msgs = [], [], []
        for module_name, module in self.named_modules(remove_duplicate=False):
            local_metadata = metadata.get(module_name, {}) if metadata is not None else {}
            module._load_from_state_dict(state_dict, module_name + "." if module_name else "", local_metadata, strict,
                                         missing, unexpected, error_msgs)
        if error_msgs:
            raise _StateDictError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                                  + "\n\t".join(error_msgs))
        entries = self._state_entries()
        names = {name for name, *_ in entries}
        given = {id(module.__dict__[table][key]) for name, module, table, key in entries if name in state_dict}
        missing += [name for name, module, table, key in entries
                    if name not in state_dict and id(module.__dict__[table][key]) not in given]
        unexpected += [k for k in state_dict if k not in names]
        post_hooks = any(m.__dict__.get("_load_state_dict_post_hooks") for m in self.modules())
        if strict and not post_hooks:
            self._refuse_incompatible(missing, unexpected)
        present = [(name, module, table, key, state_dict[name]) for name, module, table, key in entries
                   if name in state_dict]
        for name, module, table, key, value in present:
            target = module.__dict__[table][key]
            if not isinstance(value, Tensor):
                raise TypeError(f"load_state_dict: {name} is a {_type_name(value)}; expected a meshflow Tensor")
            if tuple(value.shape) != tuple(target.shape):
                raise _ShapeError(f"load_state_dict: {name} has shape {tuple(value.shape)}; the module's "
                                  f"{'parameter' if table == '_parameters' else 'buffer'} has shape "
                                  f"{tuple(target.shape)} (size mismatch for {name})")
        if assign:
            self._assign_state(entries, present)
        else:
            # Converting can fail too (a layout the value cannot take): convert all, then
            # assign. Copies (a cast always makes one), as torch's copy_: the module's later
            # in-place updates (optimizer steps) must not write the tensors given, nor another
            # module that loaded them.
            values = []
            for _, module, table, key, value in present:
                target = module.__dict__[table][key]
                values.append(cast(_in_layout_of(value.detach(), target, "load_state_dict"), target.dtype))
            for (_, module, table, key, _), value in zip(present, values):
                module.__dict__[table][key]._impl.set_data_in_place(value._impl)  # torch's copy_ keeps strides
        incompatible = _IncompatibleKeys(missing, unexpected)
        if post_hooks:
            self._run_load_post_hooks(incompatible)
            if strict:
                self._refuse_incompatible(missing, unexpected)
        return incompatible

    def _refuse_incompatible(self, missing, unexpected):
        if missing or unexpected:
            problems = []
            if unexpected:
                problems.append("Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected) + ". ")
            if missing:
                problems.append("Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ")
            raise _StateDictError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                                  + "\n\t".join(problems) + f"(load_state_dict: missing keys {missing}, "
                                  f"unexpected keys {unexpected})")

    @staticmethod
    def _assign_state(entries, present):
        new = {}  # id of a module's tensor -> what replaces it, under whichever name it came
        for _, module, table, key, value in present:
            target = module.__dict__[table][key]
            if table == "_parameters" and not isinstance(value, Parameter):
                value = Parameter(value, requires_grad=target.requires_grad)
            elif table == "_parameters":
                value.requires_grad_(target.requires_grad)
            new[id(target)] = value
        for _, module, table, key in entries:
            replacement = new.get(id(module.__dict__[table][key]))
            if replacement is not None:
                module.__dict__[table][key] = replacement

    def _tensors(self, recurse=True):
        """Every parameter and buffer (of the submodules too, with recurse), each once."""
        seen = set()
        for module in self.modules() if recurse else [self]:
            for table in ("_parameters", "_buffers"):
                for value in module.__dict__[table].values():
                    if value is not None and id(value) not in seen:
                        seen.add(id(value))
                        yield value

    def to(self, *args, **kwargs):
        """Moves parameters and buffers to a device and/or casts the floating ones to a dtype,
        as torch's Module.to; parameters keep their identity (optimizers still hold them).
        memory_format (torch.channels_last...) applies to the floating ones of 4 or 5 dims."""
        memory_format = kwargs.pop("memory_format", None)
        for t in list(self._tensors()):
            moved = t.to(*args, **kwargs) if _is_floating(t) else _to_device_only(t, *args, **kwargs)
            if memory_format is not None and _is_floating(t) and moved.ndim in (4, 5):
                moved = moved.contiguous(memory_format=memory_format)
            if moved is not t:
                t.data = moved
        return self

    def cpu(self):
        return self.to("cpu")

    def share_memory(self):
        """Itself, each tensor's share_memory_() called (the Hogwild idiom): meshflow moves
        tensors between processes by value, so sharing changes nothing (docs/porting.md)."""
        for t in self._tensors():
            t.share_memory_()
        return self

    def cuda(self, device=None):
        return self.to("cuda" if device is None else device if isinstance(device, str) else f"cuda:{device}")

    def double(self):
        return self.to(_dtype.float64)

    def float(self):
        return self.to(_dtype.float32)

    def half(self):
        return self.to(_dtype.float16)

    def bfloat16(self):
        return self.to(_dtype.bfloat16)

    def type(self, dst_type):
        """Casts every parameter and buffer to `dst_type`, integer ones too (BatchNorm's
        num_batches_tracked), as torch's Module.type; parameters keep their identity."""
        for t in list(self._tensors()):
            t.data = t.type(dst_type)
        return self

    def to_empty(self, *, device, recurse=True):
        """torch's: every parameter and buffer (of the submodules too, unless recurse=False)
        gets storage of its shape and dtype on `device`, uninitialized (zeros), keeping its
        identity and requires_grad: how a model built on the meta device gets its memory, to
        be initialized then (nn.init, reset_parameters) or loaded into."""
        from .._ops_creation import empty
        for t in list(self._tensors(recurse)):
            t.data = empty(tuple(t.shape), dtype=t.dtype, device=device)
        return self

    def to_global(self, placement, sbp):
        """Gives every parameter and buffer `placement` and an SBP: `sbp` is one SBP or tuple
        for all, or a function (name, tensor) -> SBP (names as in state_dict and
        named_buffers). A local tensor holds the full value on every rank, and the first rank
        of `placement`'s is taken, as DDP's construction copies rank 0's: ranks seeded
        differently (a DDP habit, for augmentation) or a state loaded on rank 0 alone give
        every rank one model, never replicas that differ without a word."""
        named = list(self.named_parameters()) + list(self.named_buffers())
        ranks = placement._flat_ranks
        first = _C.Placement(placement._type, [1], [ranks[0]]) if len(ranks) > 1 else None
        for name, t in named:
            chosen = sbp(name, t) if callable(sbp) else sbp
            nd_sbp = _as_nd_sbp(chosen, placement)
            if t.is_global:
                value = _C.to_global(t._impl.detach(), placement, nd_sbp)
            elif first is None:
                value = _C.global_from_full(t._impl.local_tensor, placement, nd_sbp)
            else:  # a broadcast from the first rank, then each rank keeps its part
                source = _C.global_from_full(t._impl.local_tensor, first, _as_nd_sbp(_sbp.broadcast, first))
                value = _C.to_global(source, placement, nd_sbp)
            t.data = Tensor(value)
            t.grad = None
        return self

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        """torch's nested format: the extra_repr, then "(name): child" lines indented."""
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): " + _add_indent(repr(module), 2) for name, module in self._modules.items()]
        lines = extra_lines + child_lines
        body = ""
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                body = extra_lines[0]
            else:
                body = "\n  " + "\n  ".join(lines) + "\n"
        return f"{self._get_name()}({body})"

    def extra_repr(self):
        return ""


def _check_size(module, x, dim, expected, argument, ndims=None):
    """Raises unless x's size at `dim` is `expected`, the module's constructor `argument`: the
    error names it, as torch's layers do, where the op inside would name its own operands. An
    OpError, the class that op raises (RuntimeError, and meshflow's earlier ValueError). A
    value that is no tensor, or has too few dims or a number not in `ndims`, is left to the op
    to refuse."""
    if isinstance(x, Tensor) and x.ndim > (dim if dim >= 0 else -dim - 1) and (ndims is None or x.ndim in ndims):
        got = x.shape[dim]
        if got != expected:
            raise _C.OpError(f"{type(module).__name__}: input.size({dim}) must be equal to {argument}. Expected "
                             f"{expected}, got {got} (input of shape {list(x.shape)})")


def _copy_tensor(t):
    from .._api import clone
    copied = clone(t.detach())
    if isinstance(t, Parameter):
        copied = Parameter(copied, t.requires_grad)
        if t.grad is not None:
            copied.grad = clone(t.grad)
    return copied


def _to_device_only(t, *args, **kwargs):
    """Tensor.to with the dtype dropped: Module.to casts floating tensors only, as torch."""
    kwargs.pop("dtype", None)
    devices = [a for a in args if isinstance(a, _device.device) or (isinstance(a, str) and not _names_dtype(a))]
    return t.to(*devices, **kwargs)


def _init_devices(device):
    """Where a layer's initial values go (torch's factory kwarg device=, else the default
    device; None: the CPU), and where they are drawn: on the host whatever the target, so a
    seed gives the same weights on every device, but on meta itself, where nothing is drawn."""
    target = _device.device(device) if device is not None else _device.default
    return target, target if target is not None and target.type == "meta" else "cpu"


def _uniform(shape, bound, device=None, dtype=None):
    """U(-bound, bound) from the counter-based generator, on `device` in `dtype` (torch's
    factory kwargs; None: the default device, the default float dtype), drawn in float32 where
    _init_devices says, so a seed gives the same weights in every dtype too."""
    target, drawn_on = _init_devices(device)
    drawn = rand(*shape, dtype=_dtype.float32, device=drawn_on)
    return (drawn * (2 * bound) - bound).to(device=target, dtype=dtype or get_default_dtype())


def _redraw(params, bound):
    """Each of `params` (None skipped) takes new values U(-bound, bound), drawn as the
    constructors draw them (_uniform), where it is: a layer's reset_parameters."""
    for p in params:
        if p is not None:
            p.data = _uniform(tuple(p.shape), bound, p.device, p.dtype)


def _reset_affine(module):
    """A norm's weight 1 and bias 0 (those it has), in place."""
    with no_grad():
        if module.weight is not None:
            module.weight.fill_(1.0)
        if module.bias is not None:
            module.bias.zero_()


def _reset_if_overridden(module, base):
    """torch's constructors end by calling reset_parameters(): a subclass that overrides it
    (a layer with its own initialization) gets its values from it. The base's own draws are
    made by the constructor, once."""
    if type(module).reset_parameters is not base.reset_parameters:
        module.reset_parameters()


class Linear(Module):
    """y = x @ weight^T + bias, weight [out_features, in_features], initialized as in torch."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        bound = 1 / math.sqrt(in_features) if in_features else 0
        self.weight = Parameter(_uniform((out_features, in_features), bound, device, dtype))
        self.bias = Parameter(_uniform((out_features,), bound, device, dtype)) if bias else None
        _reset_if_overridden(self, Linear)

    def reset_parameters(self):
        """Draws the weight and bias anew as the constructor does (torch's kaiming_uniform_ with
        a=sqrt(5): U(-1/sqrt(in_features), 1/sqrt(in_features))), where they are: after the
        same seed, the constructor's values; after Module.to_empty, the model's first values."""
        _redraw((self.weight, self.bias), 1 / math.sqrt(self.in_features) if self.in_features else 0)

    def forward(self, x):
        _check_size(self, x, -1, self.in_features, "in_features")
        return F.linear(x, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class LazyLinear(Linear):
    """torch's LazyLinear: a Linear whose in_features is the last dim of its first input; the
    first forward makes the weight (torch's initialization) and the module a Linear. Make
    the optimizer after it, as torch asks."""

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        super().__init__(0, out_features, bias, device, dtype)

    def forward(self, x):
        in_features = x.shape[-1]
        bound = 1 / math.sqrt(in_features) if in_features else 0
        # Where the empty weight is now (module.to moves it), in its dtype.
        device, dtype = self.weight.device, self.weight.dtype
        self.weight.data = _uniform((self.out_features, in_features), bound, device, dtype)
        if self.bias is not None:
            self.bias.data = _uniform((self.out_features,), bound, device, dtype)
        self.in_features = in_features
        self.__class__ = Linear
        return self.forward(x)


class Embedding(Module):
    """Rows of weight [num_embeddings, embedding_dim] (initialized N(0, 1) as in torch); the
    row padding_idx starts at zero and gets no gradient; with max_norm, looked-up rows are
    renormalized in place (F.embedding)."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, device=None, dtype=None):
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        if padding_idx is not None:
            from ._functional_extra import _padding_index
            padding_idx = _padding_index(padding_idx, num_embeddings)
        self.padding_idx, self.max_norm, self.norm_type = padding_idx, max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        if _weight is None:
            target, drawn_on = _init_devices(device)  # drawn as _uniform
            weight = randn(num_embeddings, embedding_dim, device=drawn_on).to(device=target, dtype=dtype)
            if padding_idx is not None:
                weight[padding_idx] = 0.0
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ValueError("Shape of weight does not match num_embeddings and embedding_dim")
            weight = _weight.detach()
        self.weight = Parameter(weight, requires_grad=not _freeze)
        if _weight is None:
            _reset_if_overridden(self, Embedding)

    def reset_parameters(self):
        """Draws the weight anew from N(0, 1) as the constructor does, its padding_idx row 0."""
        target, drawn_on = _init_devices(self.weight.device)
        weight = randn(*self.weight.shape, device=drawn_on).to(device=target, dtype=self.weight.dtype)
        if self.padding_idx is not None:
            weight[self.padding_idx] = 0.0
        self.weight.data = weight

    def forward(self, indices):
        return F.embedding(indices, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq, self.sparse)

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, max_norm=None, norm_type=2.0,
                        scale_grad_by_freq=False, sparse=False):
        """An Embedding whose weight is `embeddings` [num_embeddings, embedding_dim], frozen
        (requires_grad False) unless freeze=False."""
        if embeddings.ndim != 2:
            raise ValueError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(rows, cols, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse, _weight=embeddings,
                   _freeze=freeze)

    def extra_repr(self):
        return f"{self.num_embeddings}, {self.embedding_dim}" + (
            f", padding_idx={self.padding_idx}" if self.padding_idx is not None else "") + _lookup_options_repr(self)


def _lookup_options_repr(module):
    """torch's tail of Embedding's and EmbeddingBag's reprs: the options that differ from their
    defaults."""
    return ((f", max_norm={module.max_norm}" if module.max_norm is not None else "")
            + (f", norm_type={module.norm_type}" if module.norm_type != 2 else "")
            + (f", scale_grad_by_freq={module.scale_grad_by_freq}" if module.scale_grad_by_freq is not False else "")
            + (", sparse=True" if module.sparse is not False else ""))


class LayerNorm(Module):
    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        self.normalized_shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        made = {"device": device, "dtype": dtype}
        self.weight = Parameter(ones(*self.normalized_shape, **made)) if elementwise_affine else None
        self.bias = Parameter(zeros(*self.normalized_shape, **made)) if elementwise_affine and bias else None

    def reset_parameters(self):
        """Weight 1 and bias 0, as the constructor makes them."""
        _reset_affine(self)

    def forward(self, x):
        return F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


class _Activation(Module):
    """A module applying the functional op of the same name to its input."""

    _function = None

    def forward(self, x):
        return type(self)._function(x)


class GELU(Module):
    """gelu, exact ('none') or torch's tanh approximation."""

    def __init__(self, approximate="none"):
        super().__init__()
        if approximate not in ("none", "tanh"):
            raise ValueError(f"GELU: approximate={approximate!r}; expected 'none' or 'tanh'")
        self.approximate = approximate

    def forward(self, x):
        return F.gelu(x, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class Tanh(_Activation):
    _function = staticmethod(F.tanh)


class Sigmoid(_Activation):
    _function = staticmethod(F.sigmoid)


class Identity(Module):
    """Its input, as it is (torch.nn.Identity; arguments to the constructor are ignored)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, x):
        return x


class Flatten(Module):
    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, x):
        return x.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class _Loss(Module):
    """A loss module: the functional loss of the same name with the constructor's arguments
    (torch's _Loss, so that isinstance(loss, nn.modules.loss._Loss) holds for every loss),
    each an attribute of the module as torch's (`criterion.ignore_index`, `.beta`); the tensor
    ones (`_tensor_arguments`: class weights) are buffers, as torch's, so that to() moves them
    and state_dict() holds them."""

    _function = None
    _tensor_arguments = ()

    def __init__(self, size_average=None, reduce=None, reduction="mean", **kwargs):
        super().__init__()
        self.reduction = F.legacy_reduction(size_average, reduce, reduction)
        for name in self._tensor_arguments:
            self.register_buffer(name, kwargs.pop(name, None))
        for name, value in kwargs.items():
            setattr(self, name, value)
        self._arguments = tuple(kwargs) + self._tensor_arguments

    def forward(self, *inputs):
        arguments = {name: getattr(self, name) for name in self._arguments}
        return type(self)._function(*inputs, reduction=self.reduction, **arguments)


class _WeightedLoss(_Loss):
    """torch's base of a loss with per-class weights, for losses a program defines: `weight`
    is a buffer (moved by to(), left out of state_dict when None)."""

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class MSELoss(_Loss):
    _function = staticmethod(F.mse_loss)


class L1Loss(_Loss):
    _function = staticmethod(F.l1_loss)


class SmoothL1Loss(_Loss):
    _function = staticmethod(F.smooth_l1_loss)

    def __init__(self, size_average=None, reduce=None, reduction="mean", beta=1.0):
        super().__init__(size_average, reduce, reduction, beta=beta)


class BCELoss(_Loss):
    _function = staticmethod(F.binary_cross_entropy)
    _tensor_arguments = ("weight",)

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction, weight=weight)


class BCEWithLogitsLoss(_Loss):
    _function = staticmethod(F.binary_cross_entropy_with_logits)
    _tensor_arguments = ("weight", "pos_weight")

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None):
        super().__init__(size_average, reduce, reduction, weight=weight, pos_weight=pos_weight)


class NLLLoss(_Loss):
    _function = staticmethod(F.nll_loss)
    _tensor_arguments = ("weight",)

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction, weight=weight, ignore_index=ignore_index)


class CrossEntropyLoss(_Loss):
    _function = staticmethod(F.cross_entropy)
    _tensor_arguments = ("weight",)

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                 label_smoothing=0.0):
        super().__init__(size_average, reduce, reduction, weight=weight, ignore_index=ignore_index,
                         label_smoothing=label_smoothing)


def _add_module(owner, name, module):
    """Registers a child of a container: anything but a Module would become a plain attribute
    and the container would silently skip it (Sequential([a, b]) an identity)."""
    if not isinstance(module, Module):
        raise TypeError(f"{type(owner).__name__}: {name!r} is a {_type_name(module)}, not a meshflow.nn.Module")
    if not isinstance(name, str):
        raise TypeError(f"{type(owner).__name__}: module name {name!r} is a {_type_name(name)}; expected a str")
    if not name or "." in name or (hasattr(owner, name) and name not in owner._modules):
        raise KeyError(f"{type(owner).__name__}: module name {name!r} is empty, has a '.' or is an attribute "
                       "already; expected a new name without '.' (names join with '.' in state_dict)")
    setattr(owner, name, module)


def _index(owner, i, size):
    """Python index i (negative from the end) as a position in `size` elements. Anything with
    __index__ is one, as torch's operator.index: a NumPy integer, a one-element integer tensor
    (MoE code indexes its experts with rows of nonzero())."""
    try:
        i = operator.index(i)
    except TypeError:
        raise TypeError(f"{type(owner).__name__} indices must be integers or slices, not {_type_name(i)}") from None
    if not -size <= i < size:
        raise IndexError(f"index {i} is out of range for {type(owner).__name__} of length {size}")
    return i % size


class _IndexedModules(Module):
    """Sequential's and ModuleList's list behaviour over _modules, named "0", "1", ..."""

    def __getitem__(self, i):
        if isinstance(i, slice):
            if isinstance(self, Sequential):
                return Sequential(collections.OrderedDict(list(self._modules.items())[i]))
            return ModuleList(list(self._modules.values())[i])
        return list(self._modules.values())[_index(self, i, len(self._modules))]

    def __setitem__(self, i, module):
        key = list(self._modules)[_index(self, i, len(self._modules))]
        _add_module(self, key, module)

    def __delitem__(self, i):
        keys = list(self._modules)
        for key in (keys[i] if isinstance(i, slice) else [keys[_index(self, i, len(keys))]]):
            del self._modules[key]
        # torch numbers what is left anew: "0", "1", ...
        modules = list(self._modules.values())
        self._modules.clear()
        for j, m in enumerate(modules):
            self._modules[str(j)] = m

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def pop(self, i):
        """Removes and returns the module (or, for a slice, the modules) at i; the rest are
        numbered anew, as torch's."""
        modules = self[i]
        del self[i]
        return modules

    def append(self, module):
        _add_module(self, str(len(self._modules)), module)
        return self

    def extend(self, modules):
        for m in modules:
            self.append(m)
        return self

    def insert(self, index, module):
        modules = list(self._modules.values())
        n = len(modules)
        index = max(0, min(n, index if index >= 0 else n + index))
        if not isinstance(module, Module):
            raise TypeError(f"{type(self).__name__}: {module!r} is a {_type_name(module)}, not a meshflow.nn.Module")
        modules.insert(index, module)
        self._modules.clear()
        for j, m in enumerate(modules):
            self._modules[str(j)] = m

    def __repr__(self):
        """torch's: runs of equal reprs folded into "(0-2): 3 x Linear(...)"."""
        lines, items = [], [(name, repr(m)) for name, m in self._modules.items()]
        start = 0
        while start < len(items):
            end = start
            while end + 1 < len(items) and items[end + 1][1] == items[start][1]:
                end += 1
            body = _add_indent(items[start][1], 2)
            if end > start:
                lines.append(f"({items[start][0]}-{items[end][0]}): {end - start + 1} x {body}")
            else:
                lines.append(f"({items[start][0]}): {body}")
            start = end + 1
        if not lines:
            return f"{self._get_name()}()"
        return f"{self._get_name()}(\n  " + "\n  ".join(lines) + "\n)"


class Sequential(_IndexedModules):
    """Calls its modules in order: Sequential(a, b) names them "0" and "1", as torch does;
    Sequential(OrderedDict(name=module, ...)) by the keys."""

    def __init__(self, *modules):
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], collections.OrderedDict):
            named = modules[0].items()
        else:
            named = ((str(i), m) for i, m in enumerate(modules))
        for name, m in named:
            _add_module(self, name, m)

    def forward(self, x):
        for m in self._modules.values():
            x = m(x)
        return x

    __repr__ = Module.__repr__


class ModuleList(_IndexedModules):
    def __init__(self, modules=None):
        super().__init__()
        for m in modules or ():
            self.append(m)

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        return ModuleList(list(self) + list(other))


class ModuleDict(Module):
    """Modules by name, in insertion order, as torch.nn.ModuleDict."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        _add_module(self, key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def clear(self):
        self._modules.clear()

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules):
        items = modules.items() if hasattr(modules, "items") else modules
        for j, item in enumerate(items):
            if hasattr(modules, "items"):
                key, module = item
            else:
                if not isinstance(item, (list, tuple)) or len(item) != 2:
                    raise ValueError(f"ModuleDict update sequence element #{j} should be a (name, module) pair")
                key, module = item
            self[key] = module


def _as_parameter(value):
    """torch's containers wrap a plain tensor as a Parameter."""
    if isinstance(value, Tensor) and not isinstance(value, Parameter):
        return Parameter(value)
    return value


def _parameter_repr(p, by_type_name=False):
    """torch's line for a container's entry: ParameterList names the dtype, ParameterDict the
    tensor type (torch.typename: torch.FloatTensor); a CUDA one adds its device."""
    kind = "Parameter containing" if isinstance(p, Parameter) else "Tensor containing"
    what = p.type() if by_type_name else repr(p.dtype)
    device = f" ({p.device})" if p.device.type == "cuda" else ""
    return f"{kind}: [{what} of size {'x'.join(str(d) for d in p.shape)}{device}]"


class ParameterList(Module):
    """Parameters in a list, registered as "0", "1", ... (tensors become Parameters)."""

    def __init__(self, values=None):
        super().__init__()
        for v in values or ():
            self.append(v)

    def __getitem__(self, i):
        values = list(self._parameters.values())
        if isinstance(i, slice):
            return ParameterList(values[i])
        return values[_index(self, i, len(values))]

    def __setitem__(self, i, value):
        key = list(self._parameters)[_index(self, i, len(self._parameters))]
        setattr(self, key, _as_parameter(value))

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters.values())

    def __iadd__(self, values):
        return self.extend(values)

    def append(self, value):
        setattr(self, str(len(self._parameters)), _as_parameter(value))
        return self

    def extend(self, values):
        for v in values:
            self.append(v)
        return self

    def extra_repr(self):
        # torch's lines, indented once more by Module.__repr__.
        return "\n".join(f"  ({i}): {_parameter_repr(p)}" for i, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """Parameters by name, in insertion order (tensors become Parameters)."""

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key):
        return self._parameters[key]

    def __setitem__(self, key, value):
        _check_name("parameter", key)
        setattr(self, key, _as_parameter(value))

    def __delitem__(self, key):
        del self._parameters[key]

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters)

    def __contains__(self, key):
        return key in self._parameters

    def keys(self):
        return self._parameters.keys()

    def items(self):
        return self._parameters.items()

    def values(self):
        return self._parameters.values()

    def get(self, key, default=None):
        return self._parameters.get(key, default)

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def clear(self):
        self._parameters.clear()

    def update(self, parameters):
        items = parameters.items() if hasattr(parameters, "items") else parameters
        for key, value in items:
            self[key] = value

    def extra_repr(self):
        return "\n".join(f"  ({k}): {_parameter_repr(p, by_type_name=True)}" for k, p in self.items())

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterDict should not be called.")


# ---- Activations and losses with arguments (issue 26).

class _SoftmaxLike(Module):
    _function = None

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        dim = F._softmax_dim(type(self).__name__, x.ndim) if self.dim is None else self.dim
        return type(self)._function(x, dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax(_SoftmaxLike):
    _function = staticmethod(F.softmax)


class LogSoftmax(_SoftmaxLike):
    _function = staticmethod(F.log_softmax)


class Softmin(_SoftmaxLike):
    _function = staticmethod(F.softmin)


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, x):
        return F.leaky_relu(x, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class ELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, x):
        return F.elu(x, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class CosineSimilarity(Module):
    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class KLDivLoss(_Loss):
    _function = staticmethod(F.kl_div)

    def __init__(self, size_average=None, reduce=None, reduction="mean", log_target=False):
        super().__init__(size_average, reduce, reduction, log_target=log_target)


class HuberLoss(_Loss):
    _function = staticmethod(F.huber_loss)

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction=reduction, delta=delta)
