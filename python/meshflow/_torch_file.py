"""PyTorch checkpoints (torch.save's files: `.pt`, `.bin`) read without PyTorch and without
running their code.

torch.save's format (PyTorch >= 1.6) is a zip archive: `<name>/data.pkl` pickles the object,
each tensor as `torch._utils._rebuild_tensor_v2(storage, offset, size, stride, ...)` whose
storage is a persistent id ("storage", torch.FloatStorage, key, location, numel) naming the
entry `<name>/data/<key>` that holds its bytes; `<name>/byteorder` says their byte order.
The legacy format (`_use_new_zipfile_serialization=False`) is a stream of pickles (magic
number, protocol, system information, the object, its storage keys) followed by each
storage as an int64 element count and its bytes.

A pickle can run any code its author chose, so the unpickler here resolves only the names a
checkpoint of tensors needs (as torch.load(weights_only=True)): the two tensor rebuilders,
collections.OrderedDict, torch's storage types and dtypes, torch.Size, set and frozenset; any
other name raises before anything is called. The objects it makes refuse pickle's BUILD, and
the tensors are made only after unpickling, from storage offsets, sizes and strides checked
against the storage, so a crafted file can neither run code nor read outside its storages.

Storages are memory-mapped where the archive stores them uncompressed (torch.save does), and
each tensor is copied once, from the mapped pages into its meshflow tensor. Tensors that
share a storage (views, tied weights) come out as separate tensors with the same values.
"""
import collections
import math
import pickle
import zipfile

import numpy as np

from . import _C
from . import _dtype
from ._tensor import Tensor, _copy_of

ZIP_MAGIC = b"PK\x03\x04"
LEGACY_MAGIC = 0x1950a86a20f9469cfc6c  # the first pickle of a legacy torch.save file
_LEGACY_PREFIX = b"\x80\x02\x8a\x0a" + LEGACY_MAGIC.to_bytes(10, "little")  # how protocol 2 pickles it

# torch's storage type -> (NumPy dtype of its elements, the dtype's name in torch and meshflow);
# which of these meshflow has is looked up when loading (meshflow's dtype table grows).
_STORAGES = {
    "DoubleStorage": ("f8", "float64"), "FloatStorage": ("f4", "float32"), "HalfStorage": ("f2", "float16"),
    "BFloat16Storage": ("u2", "bfloat16"), "LongStorage": ("i8", "int64"), "IntStorage": ("i4", "int32"),
    "ShortStorage": ("i2", "int16"), "CharStorage": ("i1", "int8"), "ByteStorage": ("u1", "uint8"),
    "BoolStorage": ("?", "bool"), "ComplexFloatStorage": ("c8", "complex64"),
    "ComplexDoubleStorage": ("c16", "complex128"),
}
_DTYPE_ALIASES = {"double": "float64", "float": "float32", "half": "float16", "long": "int64", "int": "int32",
                  "short": "int16"}  # torch.float is torch.float32, ...


def sniff(first_bytes):
    """"zip" or "legacy" for the first bytes of a file torch.save may have written, else None."""
    if first_bytes.startswith(ZIP_MAGIC):
        return "zip"
    if first_bytes.startswith(_LEGACY_PREFIX):
        return "legacy"
    return None


class _Refused(Exception):
    """A name or an object a checkpoint of tensors has no use for."""


class _Inert:
    """Base of what the unpickler makes: pickle's BUILD could set its attributes and bypass the
    checks, so it is refused."""
    __slots__ = ()

    def __setstate__(self, state):
        raise _Refused(f"BUILD (setting the state of a {type(self).__name__.lstrip('_')})")


class _StorageType(_Inert):
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name


class _Storage(_Inert):
    """A storage named by a persistent id: its key in the file, element type and count."""
    __slots__ = ("key", "type_name", "numel")

    def __init__(self, key, type_name, numel):
        self.key, self.type_name, self.numel = key, type_name, numel


class _StorageView(_Inert):
    """A legacy file's view of a storage (`view_metadata`): numel elements from offset."""
    __slots__ = ("base", "offset", "numel")

    def __init__(self, base, offset, numel):
        self.base, self.offset, self.numel = base, offset, numel


class _PendingTensor(_Inert):
    """A tensor to make once every storage is known: its storage, offset, size and stride as
    the pickle gave them (checked when it is made)."""
    __slots__ = ("storage", "offset", "size", "stride", "requires_grad")

    def __init__(self, storage, offset, size, stride, requires_grad):
        self.storage, self.offset, self.size, self.stride = storage, offset, size, stride
        self.requires_grad = requires_grad


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad=False, backward_hooks=None,
                       metadata=None):
    return _PendingTensor(storage, storage_offset, size, stride, requires_grad)


def _rebuild_parameter(data, requires_grad, backward_hooks, state=None):
    if not isinstance(data, _PendingTensor):
        raise _Refused(f"a parameter of a {type(data).__name__}")
    data.requires_grad = requires_grad
    return data


def _size(*args):
    return tuple(*args)


def _allowed(module, name):
    """What the pickle's global `module.name` becomes, or raises _Refused."""
    if module == "torch._utils" and name == "_rebuild_tensor_v2":
        return _rebuild_tensor_v2
    if module == "torch._utils" and name in ("_rebuild_parameter", "_rebuild_parameter_with_state"):
        return _rebuild_parameter
    if module == "collections" and name == "OrderedDict":
        return collections.OrderedDict
    if module in ("builtins", "__builtin__") and name in ("set", "frozenset"):
        return {"set": set, "frozenset": frozenset}[name]
    if module == "torch" and name in _STORAGES:
        return _StorageType(name)
    if module == "torch" and name == "Size":
        return _size
    if module == "torch" and _DTYPE_ALIASES.get(name, name) in _dtype._BY_NAME:
        return _dtype.to_dtype(_DTYPE_ALIASES.get(name, name))
    raise _Refused(f"the global {module}.{name}")


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, storages):
        super().__init__(file)
        self._storages = storages  # key -> _Storage, filled as persistent ids name them

    def find_class(self, module, name):
        return _allowed(module, name)

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and len(pid) in (5, 6) and pid[0] in ("storage", b"storage")
                and isinstance(pid[1], _StorageType) and isinstance(pid[2], (str, int))
                and isinstance(pid[4], int) and not isinstance(pid[4], bool) and pid[4] >= 0):
            raise _Refused(f"the persistent id {pid!r}")
        key = str(pid[2])
        storage = self._storages.setdefault(key, _Storage(key, pid[1].name, pid[4]))
        view = pid[5] if len(pid) == 6 else None
        if view is None:
            return storage
        view_key, offset, numel = view  # a legacy view of the storage `key`
        return _StorageView(storage, offset, numel)


def _unpickle(file, storages, path):
    try:
        return _Unpickler(file, storages).load()
    except _Refused as e:
        raise ValueError(f"[load] '{path}' holds {e}, which a checkpoint of tensors does not need; meshflow "
                         "loads only tensors, dicts, lists, tuples and plain values from a PyTorch file "
                         "(as torch.load(weights_only=True)), and never runs a pickle's code") from None
    except Exception as e:  # noqa: BLE001 - a damaged or crafted pickle fails in many ways
        raise ValueError(f"[load] '{path}' is not a PyTorch checkpoint meshflow can read "
                         f"({type(e).__name__}: {e})") from None


# ---------------------------------------------------------------------------------------------
# Making the tensors

def _materialize(obj, storage_bytes, byteorder, path, name=()):
    """`obj` with each pending tensor made a meshflow tensor; storage_bytes(storage) is the
    uint8 array of a storage's bytes."""
    if isinstance(obj, _PendingTensor):
        return _make_tensor(obj, storage_bytes, byteorder, path, ".".join(map(str, name)) or "the object")
    if isinstance(obj, _Inert):
        raise ValueError(f"[load] '{path}' holds a bare {type(obj).__name__.lstrip('_')} at "
                         f"'{'.'.join(map(str, name))}'; expected tensors, containers and plain values")
    if isinstance(obj, dict):
        return type(obj)((k, _materialize(v, storage_bytes, byteorder, path, name + (k,))) for k, v in obj.items())
    if isinstance(obj, (list, tuple, set, frozenset)):
        return type(obj)(_materialize(v, storage_bytes, byteorder, path, name + (i,)) for i, v in enumerate(obj))
    return obj


def _is_ints(values):
    return isinstance(values, tuple) and all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def _make_tensor(pending, storage_bytes, byteorder, path, name):
    storage, offset, view_numel = pending.storage, 0, None
    if isinstance(storage, _StorageView):
        storage, offset, view_numel = storage.base, storage.offset, storage.numel
    if not isinstance(storage, _Storage):
        raise ValueError(f"[load] '{path}': the tensor '{name}' has no storage; expected a persistent id")
    element, dtype_name = _STORAGES[storage.type_name]
    if dtype_name not in _dtype._BY_NAME:
        raise ValueError(f"[load] '{path}': the tensor '{name}' has dtype {dtype_name}, which meshflow lacks; "
                         f"expected one of {', '.join(_dtype._BY_NAME)}")
    size, stride = tuple(pending.size), tuple(pending.stride)
    numel = storage.numel if view_numel is None else view_numel
    base = pending.offset
    if not (_is_ints(size) and _is_ints(stride) and len(size) == len(stride) and all(n >= 0 for n in size)
            and all(s >= 0 for s in stride) and isinstance(base, int) and base >= 0 and isinstance(offset, int)
            and offset >= 0 and isinstance(numel, int) and 0 <= numel):
        raise ValueError(f"[load] '{path}': the tensor '{name}' has offset {base!r}, size {size!r} and stride "
                         f"{stride!r}; expected ints >= 0, as many sizes as strides")
    end = base + sum((n - 1) * s for n, s in zip(size, stride)) + 1 if math.prod(size) else base
    if end > numel or offset + numel > storage.numel:
        raise ValueError(f"[load] '{path}': the tensor '{name}' (offset {base}, size {list(size)}, stride "
                         f"{list(stride)}) reaches element {end} of a storage of {numel}; the file is damaged")
    dtype = np.dtype(element).newbyteorder("<" if byteorder == "little" else ">")
    data = storage_bytes(storage)
    if data.size != storage.numel * dtype.itemsize:
        raise ValueError(f"[load] '{path}': the storage of '{name}' holds {data.size} bytes; expected "
                         f"{storage.numel} elements of {dtype.itemsize} bytes")
    elements = data.view(dtype)[offset:offset + numel]
    view = np.lib.stride_tricks.as_strided(elements[base:], shape=size,
                                           strides=[s * dtype.itemsize for s in stride], writeable=False)
    array = np.require(view, dtype.newbyteorder("="), requirements="C")  # copies only a strided or swapped view
    tensor = Tensor(_C.Var(_C.LocalTensor.from_bits(array))) if dtype_name == "bfloat16" else _copy_of(array)
    if pending.requires_grad is True and tensor.dtype.is_floating_point:
        tensor.requires_grad_(True)
    return tensor


# ---------------------------------------------------------------------------------------------
# The two file formats

def _zip_storages(archive, prefix, path):
    """storage_bytes(storage) for a zip archive: each entry memory-mapped when stored."""
    mapped = np.memmap(path, dtype=np.uint8, mode="r")
    cache = {}

    def storage_bytes(storage):
        if storage.key not in cache:
            try:
                info = archive.getinfo(f"{prefix}data/{storage.key}")
            except KeyError:
                raise ValueError(f"[load] '{path}' lacks the storage '{prefix}data/{storage.key}'; the file is "
                                 "incomplete") from None
            if info.compress_type == zipfile.ZIP_STORED:
                local = mapped[info.header_offset:info.header_offset + 30].tobytes()
                start = (info.header_offset + 30 + int.from_bytes(local[26:28], "little")
                         + int.from_bytes(local[28:30], "little"))
                if not local.startswith(ZIP_MAGIC) or start + info.file_size > mapped.size:
                    raise ValueError(f"[load] '{path}' is damaged: the entry '{info.filename}' lies outside it")
                cache[storage.key] = mapped[start:start + info.file_size]
            else:
                cache[storage.key] = np.frombuffer(archive.read(info), np.uint8)
        return cache[storage.key]
    return storage_bytes


def _read_zip(path):
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile as e:
        raise ValueError(f"[load] '{path}' is a damaged zip file ({e})") from None
    with archive:
        pickles = [n for n in archive.namelist() if n.endswith("/data.pkl") and n.count("/") == 1]
        if len(pickles) != 1:
            raise ValueError(f"[load] '{path}' is a zip file without one '<name>/data.pkl'; expected a file "
                             "written by torch.save (or meshflow.save to a file object)")
        prefix = pickles[0][:-len("data.pkl")]
        byteorder = "little"
        if f"{prefix}byteorder" in archive.namelist():
            byteorder = archive.read(f"{prefix}byteorder").decode(errors="replace").strip()
            if byteorder not in ("little", "big"):
                raise ValueError(f"[load] '{path}' has byteorder {byteorder!r}; expected little or big")
        storages = {}
        with archive.open(pickles[0]) as f:
            obj = _unpickle(f, storages, path)
        return _materialize(obj, _zip_storages(archive, prefix, path), byteorder, path)


def _read_legacy(path):
    storages = {}
    with open(path, "rb") as f:
        header = [_unpickle(f, {}, path) for _ in range(3)]  # magic number, protocol version, system info
        if header[0] != LEGACY_MAGIC or header[1] != 1001 or not isinstance(header[2], dict):
            raise ValueError(f"[load] '{path}' is not a legacy torch.save file (magic {header[0]!r}, protocol "
                             f"{header[1]!r}); expected protocol 1001")
        byteorder = "little" if header[2].get("little_endian", True) else "big"
        obj = _unpickle(f, storages, path)
        keys = _unpickle(f, {}, path)
        if not isinstance(keys, list) or set(map(str, keys)) != set(storages):
            raise ValueError(f"[load] '{path}' lists the storage keys {keys!r}; expected those its tensors use")
        offset = f.tell()
    mapped = np.memmap(path, dtype=np.uint8, mode="r")
    arrays = {}
    for key in map(str, keys):  # each: an int64 element count, then the elements
        storage = storages[key]
        itemsize = np.dtype(_STORAGES[storage.type_name][0]).itemsize
        count = int(mapped[offset:offset + 8].view(np.dtype("<i8" if byteorder == "little" else ">i8"))[0]) \
            if offset + 8 <= mapped.size else -1
        nbytes = count * itemsize
        if count != storage.numel or offset + 8 + nbytes > mapped.size:
            raise ValueError(f"[load] '{path}' is damaged or truncated: the storage '{key}' lists {count} elements "
                             f"where {storage.numel} are expected")
        arrays[key] = mapped[offset + 8:offset + 8 + nbytes]
        offset += 8 + nbytes
    return _materialize(obj, lambda storage: arrays[storage.key], byteorder, path)


def read(path, kind):
    """The object of the torch.save file at `path` ("zip" or "legacy" as sniff() says), with
    meshflow tensors in place of torch's."""
    return _read_zip(path) if kind == "zip" else _read_legacy(path)
