"""The safetensors format (Hugging Face's): one flat {name: tensor} per file, no code in it.

Layout: an 8-byte little-endian header length N, N bytes of JSON {name: {"dtype", "shape",
"data_offsets": [begin, end]}, "__metadata__": {str: str} (optional)}, then the tensors'
bytes, little-endian and row-major, at those offsets (relative to the end of the header),
back to back from 0 to the end of the file.

read() memory-maps the file: each tensor is copied once, from the mapped pages into its
meshflow tensor, so a large file is neither read into memory first nor copied again. The
header comes from elsewhere: every offset and size is checked against the file before
anything is read, so a crafted header can neither read outside it nor allocate without end.
"""
import json
import math
import os

import numpy as np

from . import _C
from . import _dtype
from ._dtype import bfloat16
from ._tensor import Tensor, _copy_of

# safetensors dtype -> (NumPy dtype of its bytes, the dtype's name in torch and meshflow); which
# of these meshflow has is looked up when loading (meshflow's dtype table grows).
_DTYPES = {
    "F64": ("<f8", "float64"), "F32": ("<f4", "float32"), "F16": ("<f2", "float16"), "BF16": ("<u2", "bfloat16"),
    "I64": ("<i8", "int64"), "I32": ("<i4", "int32"), "I16": ("<i2", "int16"), "I8": ("i1", "int8"),
    "U64": ("<u8", "uint64"), "U32": ("<u4", "uint32"), "U16": ("<u2", "uint16"), "U8": ("u1", "uint8"),
    "BOOL": ("?", "bool"), "F8_E4M3": ("u1", "float8_e4m3fn"), "F8_E5M2": ("u1", "float8_e5m2"),
    "C64": ("<c8", "complex64"),
}
_CODES = {name: code for code, (_, name) in _DTYPES.items()}  # dtype name -> safetensors dtype
_HEADER_LIMIT = 100 * 1024 * 1024  # the safetensors library's own limit on the JSON header


def is_safetensors(first_bytes, file_size):
    """Whether a file starting with `first_bytes` (at least 9 of them) looks like safetensors:
    a header length that fits the file, followed by a JSON object."""
    if len(first_bytes) < 9:
        return False
    length = int.from_bytes(first_bytes[:8], "little")
    return 2 <= length <= min(file_size - 8, _HEADER_LIMIT) and first_bytes[8:9] == b"{"


def _tensor_of(array, dtype_name):
    """A local meshflow tensor holding a copy of `array` (bfloat16 given as its uint16 bits)."""
    array = np.require(array, array.dtype.newbyteorder("="), requirements="C")  # copies only on a big-endian host
    if dtype_name == "bfloat16":
        return Tensor(_C.Var(_C.LocalTensor.from_bits(array)))
    return _copy_of(array)


def read(path):
    """{name: local tensor} of the safetensors file at `path`, in the header's order of offsets."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        first = f.read(8)
        if len(first) < 8:
            raise ValueError(f"[load] '{path}' is too short for a safetensors file ({size} bytes)")
        length = int.from_bytes(first, "little")
        if not 2 <= length <= min(size - 8, _HEADER_LIMIT):
            raise ValueError(f"[load] '{path}' has a safetensors header length of {length} in a file of {size} "
                             "bytes; the file is damaged or truncated")
        try:
            header = json.loads(f.read(length))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ValueError(f"[load] '{path}' has a damaged safetensors header ({e})") from None
    if not isinstance(header, dict):
        raise ValueError(f"[load] '{path}' has a safetensors header that is not a JSON object")
    header.pop("__metadata__", None)
    data_size = size - 8 - length
    entries = sorted((_check_entry(path, name, entry, data_size) for name, entry in header.items()),
                     key=lambda e: e[3])
    # np.memmap cannot map zero bytes: a file of empty tensors has none.
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + length, shape=(data_size,)) if data_size else None
    tensors = {}
    for name, (storage, dtype_name), shape, begin, end in entries:
        array = data[begin:end].view(storage).reshape(shape) if end > begin else np.zeros(shape, storage)
        tensors[name] = _tensor_of(array, dtype_name)
    return tensors


def _check_entry(path, name, entry, data_size):
    """(name, (NumPy dtype, meshflow dtype name), shape, begin, end) of a header entry, checked."""
    def refuse(what):
        raise ValueError(f"[load] '{path}': the tensor '{name}' {what}")

    if not isinstance(entry, dict) or not {"dtype", "shape", "data_offsets"} <= entry.keys():
        refuse(f"has the header entry {entry!r}; expected dtype, shape and data_offsets")
    code, shape, offsets = entry["dtype"], entry["shape"], entry["data_offsets"]
    if code not in _DTYPES:
        refuse(f"has the dtype {code!r}, which safetensors does not define")
    if _DTYPES[code][1] not in _dtype._BY_NAME:
        refuse(f"has the dtype {code} ({_DTYPES[code][1]}), which meshflow lacks; expected one of "
               f"{', '.join(c for c, (_, name) in _DTYPES.items() if name in _dtype._BY_NAME)}")
    ints = lambda v: isinstance(v, list) and all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in v)
    if not ints(shape) or not ints(offsets) or len(offsets) != 2:
        refuse(f"has shape {shape!r} and data_offsets {offsets!r}; expected lists of ints >= 0")
    begin, end = offsets
    storage = np.dtype(_DTYPES[code][0])
    if not begin <= end <= data_size or end - begin != math.prod(shape) * storage.itemsize:
        refuse(f"lies at bytes [{begin}, {end}) of {data_size}; expected {math.prod(shape)} elements of "
               f"{storage.itemsize} bytes inside the file")
    return name, (storage, _DTYPES[code][1]), tuple(shape), begin, end


def write(tensors, path, metadata=None, alone=False):
    """Writes {name: tensor} to `path` as safetensors, its tensors in the dict's order, into
    a temporary file first and renamed once whole, so a crash leaves any earlier file.
    Global tensors are gathered one at a time (collective: every rank calls it alike); rank 0
    writes. Returns rank 0's error message ("" when it succeeded, and on the other ranks).
    alone: `tensors` are local, and the calling rank writes them, whichever it is (several
    ranks writing one path each replace it with a complete file)."""
    from . import env
    if not isinstance(tensors, dict) or not all(isinstance(k, str) and isinstance(v, Tensor)
                                                for k, v in tensors.items()):
        raise TypeError("[save] a .safetensors file holds a flat dict of str -> Tensor (a state_dict); "
                        f"got {_describe(tensors)}; expected format='meshflow' for nested states and plain values")
    if metadata is not None and not (isinstance(metadata, dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in metadata.items())):
        raise TypeError(f"[save] metadata={metadata!r}; expected a dict of str -> str")
    header, offset = {}, 0
    if metadata:
        header["__metadata__"] = metadata
    for name, t in tensors.items():
        code = _CODES[t.dtype.name]
        nbytes = t.numel() * np.dtype(_DTYPES[code][0]).itemsize
        header[name] = {"dtype": code, "shape": list(t.shape), "data_offsets": [offset, offset + nbytes]}
        offset += nbytes
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the tensors start 8-byte aligned, as the library writes them
    tmp, f, error = path + (f".tmp-save-{os.getpid()}" if alone else ".tmp-save"), None, ""
    try:
        if alone or env.get_rank() == 0:
            f = open(tmp, "wb")
            f.write(len(text).to_bytes(8, "little") + text)
    except OSError as e:
        error = f"[save] writing '{path}' failed: {e}"
    for name, t in tensors.items():
        full = Tensor(_C.Var(_C.gather_full(t._impl))) if t.is_global else t  # collective: on every rank
        if f is not None and not error:
            try:
                f.write(_bytes_of(full))
            except OSError as e:
                error = f"[save] writing '{name}' to '{path}' failed: {e}"
    if f is not None:
        try:
            f.flush()
            os.fsync(f.fileno())
            f.close()
            if not error:
                os.replace(tmp, path)
        except OSError as e:
            error = error or f"[save] writing '{path}' failed: {e}"
        if error and os.path.exists(tmp):
            os.remove(tmp)
    return error


def _bytes_of(local):
    """A local tensor's elements in safetensors' layout: little-endian, row-major, bfloat16 as bits."""
    array = local._impl.local_tensor.bits() if local.dtype == bfloat16 else local._numpy()
    return np.require(array, array.dtype.newbyteorder("<"), requirements="C").reshape(-1).view(np.uint8)


def _describe(value):
    if isinstance(value, dict):
        bad = next((f"the key {k!r} -> {type(v).__name__}" for k, v in value.items()
                    if not (isinstance(k, str) and isinstance(v, Tensor))), "")
        return f"a dict with {bad}"
    return f"a {type(value).__name__}"
