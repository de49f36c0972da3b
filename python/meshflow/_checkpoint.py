"""Checkpoints: `save(state, path)` and `load(path, ...)` for state dicts of tensors.

A state is a dict, possibly nested (dicts with str or int keys, lists, tuples), whose
leaves are tensors (global or local) or plain values (int, float, str, bool, None); a lone
tensor or list is a state too.

On disk `path` is a directory: `meshflow_checkpoint.json` holds the state's tree with its
plain values, and for each tensor its shape, dtype, placement, SBP and shards; each shard is
one `.npy` file holding a box of the logical tensor (start and extent in the JSON); bfloat16
shards hold the values' bits as uint16. Only one
replica of each distinct shard is written (by the rank at coordinate 0 on every broadcast
axis; partial axes are reduced to broadcast first). A local tensor is taken to be the same
on every rank (a step count, say): rank 0 writes its copy.

Loading reshards: each rank reads only the parts of the shards that overlap the box it
holds in the target layout, so a checkpoint saved on one mesh and SBP loads into any other,
onto one rank, or as local tensors holding the full value.

Both calls are collective over the world: every rank calls them in the same order with the
same arguments, on a directory that every rank sees (one machine or a shared file system).
Any rank's error (missing checkpoint, failed write, mismatched template) raises the same
ValueError on every rank.

Crash safety: a save writes into `path + ".tmp-save"` and flushes every file to the disk
(fsync); once every rank has finished, rank 0 moves an existing checkpoint to
`path + ".old-save"`, renames the new one to `path` and deletes the old one. At every moment
a complete checkpoint is at `path` or, between the two renames, at the ".old-save"
directory, which `load` falls back to. A process killed at any point, or a disk that fills
up, leaves the previous checkpoint whole; a power cut too, since nothing is renamed before
its files are on the disk.

Integrity: the JSON records a CRC-32 of each shard's data and of its own contents; `load`
checks those it reads and raises naming the file when one differs, so a damaged or
truncated file is never read as values. (Version-1 checkpoints, without checksums, still
load unchecked.)

Single files, for pretrained weights: `load` also reads safetensors files (_safetensors.py)
and torch.save files (_torch_file.py), told apart by their first bytes, into local tensors;
`save(..., format="safetensors")` writes a safetensors file.
"""
import dataclasses
import itertools
import collections
import copy
import json
import math
import zlib
import os
import re
import shutil
import stat
import zipfile

import numpy as np

from . import _C
from . import _device
from . import _safetensors
from . import _torch_file
from . import env
from .sbp import broadcast, partial_max, partial_min, partial_sum, split
from ._dtype import bfloat16, dtype as _dtype_type, to_dtype
from ._placement import placement as _placement
from ._tensor import Tensor, _copy_of

META_FILE = "meshflow_checkpoint.json"
FORMAT = "meshflow-checkpoint"
VERSION = 2
READABLE_VERSIONS = (1, 2)  # version 1 had no checksums
TMP_SUFFIX = ".tmp-save"
OLD_SUFFIX = ".old-save"
LOCAL = "local"  # placement= value (or placement function result) for a local tensor with the full value
INT64_MAX = 2**63 - 1  # sizes beyond this overflow the C++ shapes and byte counts

_SBP_BY_NAME = {"B": broadcast, "P": partial_sum, "P(max)": partial_max, "P(min)": partial_min}


@dataclasses.dataclass(frozen=True)
class SavedTensor:
    """What a checkpoint records about a tensor; `load` passes it to placement and sbp functions.

    `ranks` is the nested list of the placement it was saved from and `sbp` its N-d SBP,
    both None for a local tensor. The placement itself is not built: it may need more ranks
    than the loading world has.
    """
    shape: tuple
    dtype: object  # a meshflow dtype
    ranks: object
    sbp: tuple

    @property
    def is_global(self):
        return self.ranks is not None


# ---------------------------------------------------------------------------------------------
# Where the parts of a tensor lie (CONCEPTS.md section 2, as meshflow/placement/sbp.h local_box).

def _local_box(shape, hierarchy, nd_sbp, coordinate):
    """(start, extent) of the region the rank at `coordinate` holds: each split axis cuts
    the region that the outer axes left, into balanced parts (the first ones one larger)."""
    start, extent = [0] * len(shape), list(shape)
    for parts, sbp, index in zip(hierarchy, nd_sbp, coordinate):
        if sbp.is_split:
            n = extent[sbp.dim]
            start[sbp.dim] += index * (n // parts) + min(index, n % parts)
            extent[sbp.dim] = n // parts + (1 if index < n % parts else 0)
    return start, extent


def _coordinate(ranks, rank):
    """The coordinate of `rank` in the nested `ranks`, or None when it is not there."""
    where = np.argwhere(np.array(ranks) == rank)
    return tuple(int(i) for i in where[0]) if len(where) else None


def _distinct_shards(shape, hierarchy, nd_sbp):
    """[(coordinate, start, extent)] of the non-empty parts of a layout without partial axes,
    one per distinct part: coordinate 0 on every broadcast axis holds the replica written."""
    kept_axes = [range(n) if sbp.is_split else range(1) for n, sbp in zip(hierarchy, nd_sbp)]
    shards = []
    for coordinate in itertools.product(*kept_axes):
        start, extent = _local_box(shape, hierarchy, nd_sbp, coordinate)
        if math.prod(extent) > 0:
            shards.append((coordinate, start, extent))
    return shards


def _without_partial(nd_sbp):
    return tuple(broadcast if sbp.is_partial else sbp for sbp in nd_sbp)


def _sbp_from_name(name):
    if name in _SBP_BY_NAME:
        return _SBP_BY_NAME[name]
    match = re.fullmatch(r"S\((\d+)\)", name)
    if not match:
        raise ValueError(f"unknown sbp '{name}' in the checkpoint; expected S(k), B, P, P(max) or P(min)")
    return split(int(match.group(1)))


# ---------------------------------------------------------------------------------------------
# The state's tree <-> JSON. Each node is a one-key dict naming its kind, so that a user's
# dict never reads as a node.

def _encode(value, path, tensors, objects=None, seen=None):
    """The JSON node of `value` at `path` (a tuple of keys); appends (path, tensor) to `tensors`.
    With a list `objects` (a file's state), any other object (a whole module) is appended
    there, to be pickled; without, it raises. With a dict `seen` (a file's state: id of a
    tensor -> its index), a tensor met again (one Parameter in a list and in a dict) is the
    same node, so that it loads as one object, as torch's pickle memo keeps it."""
    if isinstance(value, Tensor):
        if seen is not None and id(value) in seen:
            return {"tensor": seen[id(value)]}
        tensors.append((path, value))
        if seen is not None:
            seen[id(value)] = len(tensors) - 1
        return {"tensor": len(tensors) - 1}
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            if isinstance(key, bool) or not isinstance(key, (str, int)):
                raise TypeError(f"{_describe(path)} has the key {key!r}; expected str or int keys")
            items.append([key, _encode(item, path + (key,), tensors, objects, seen)])
        if isinstance(value, collections.OrderedDict):  # a state_dict: its type and _metadata load back, as torch's
            return {"odict": [items, _plain_metadata(getattr(value, "_metadata", None))]}
        return {"dict": items}
    if isinstance(value, _dtype_type):
        return {"dtype": value.name}
    if isinstance(value, (list, tuple)):
        kind = "list" if isinstance(value, list) else "tuple"
        return {kind: [_encode(item, path + (i,), tensors, objects, seen) for i, item in enumerate(value)]}
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"value": value}
    if objects is not None:
        objects.append(value)
        return {"object": len(objects) - 1}
    raise TypeError(f"{_describe(path)} is a {type(value).__name__}; expected a meshflow.Tensor, "
                    "dict, list, tuple, int, float, str, bool or None (other objects, a whole module, are pickled "
                    "into one file of local tensors: a path ending .pt, .pth, .bin, .ckpt or .tar, or a file "
                    "object)")


def _plain_metadata(metadata):
    """A state_dict's _metadata ({module prefix: {"version": n}}) as JSON's pairs, or None when
    it has none or holds what JSON cannot."""
    if metadata is None:
        return None
    try:
        return json.loads(json.dumps(list(metadata.items())))
    except (TypeError, ValueError):
        return None


def _decode(node, tensors, objects=()):
    (kind, body), = node.items()
    if kind == "tensor":
        return tensors[body]
    if kind == "object":
        return objects[body]
    if kind == "dict":
        return {key: _decode(item, tensors, objects) for key, item in body}
    if kind == "odict":
        items, metadata = body
        out = collections.OrderedDict((key, _decode(item, tensors, objects)) for key, item in items)
        if metadata is not None:
            out._metadata = collections.OrderedDict(metadata)
        return out
    if kind == "dtype":
        return to_dtype(body)
    if kind == "list":
        return [_decode(item, tensors, objects) for item in body]
    if kind == "tuple":
        return tuple(_decode(item, tensors, objects) for item in body)
    return body


def _name(path):
    """"model.layers.0.weight" for ("model", "layers", 0, "weight")."""
    return ".".join(str(key) for key in path)


def _describe(path):
    return f"'{_name(path)}'" if path else "the state"


def _tensors_in(template, path=()):
    """{path: tensor} for every tensor in a nested template (anything else in it is ignored)."""
    if isinstance(template, Tensor):
        return {path: template}
    if isinstance(template, dict):
        items = template.items()
    elif isinstance(template, (list, tuple)):
        items = enumerate(template)
    else:
        return {}
    found = {}
    for key, item in items:
        found.update(_tensors_in(item, path + (key,)))
    return found


# ---------------------------------------------------------------------------------------------
# save

def _stored(local):
    """A local tensor's elements as a NumPy array to save: bfloat16 as its uint16 bits, so
    they load back exactly."""
    if local.dtype == bfloat16:
        return local._impl.local_tensor.bits()
    return local._numpy()


def _storage_dtype(name):
    """The NumPy dtype a saved tensor of meshflow dtype `name` is stored in."""
    return np.dtype(np.uint16) if to_dtype(name) == bfloat16 else to_dtype(name).numpy


def _from_stored(array, name):
    """The local tensor of a stored array (bfloat16 bits back to bfloat16)."""
    if to_dtype(name) == bfloat16:
        return Tensor(_C.Var(_C.LocalTensor.from_bits(array)))
    return _copy_of(array)


def _crc32(array):
    """The CRC-32 of an array's elements in row-major order."""
    return zlib.crc32(memoryview(np.ascontiguousarray(array)).cast("B"))


def _write_durably(file, write):
    """Creates `file`, lets write(f) fill it and flushes it to the disk before returning."""
    with open(file, "wb") as f:
        write(f)
        f.flush()
        os.fsync(f.fileno())


def _sync_directory(directory):
    """Flushes a directory's entries (files created or renamed in it) to the disk."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_npy(f, array):
    """Writes `array` in NumPy's .npy format with file writes, whose errors carry the
    system's reason ("No space left on device"); np.save's tofile loses it."""
    array = np.require(array, requirements="C")  # keeps 0-d arrays 0-d, unlike ascontiguousarray
    np.lib.format.write_array_header_1_0(f, np.lib.format.header_data_from_array_1_0(array))
    f.write(memoryview(array).cast("B"))


def _write_shard(file, array):
    """Writes one shard (tests replace this to simulate a failing disk)."""
    _write_durably(file, lambda f: _write_npy(f, array))


def _shard_file(index, coordinate):
    return f"t{index}" + "".join(f"-{c}" for c in coordinate) + ".npy"


def _plan_tensor(index, path, tensor, rank):
    """(the JSON record of `tensor`, [(file, array)] this rank writes); each shard in the
    record names the rank that writes it. Collective for a global tensor with partial axes:
    they are reduced to broadcast first."""
    record = {"path": list(path), "shape": list(tensor.shape), "dtype": tensor.dtype.name}
    if tensor.is_local:
        shards = [((), [0] * tensor.ndim, list(tensor.shape))] if tensor.numel() > 0 else []
        writers = [0] * len(shards)
        writes = [(_shard_file(index, ()), _stored(tensor))] if rank == 0 and shards else []
        record.update(device=None, ranks=None, sbp=None)
    else:
        where = tensor.placement
        record.update(device=where.type, ranks=where.ranks, sbp=[repr(s) for s in tensor.sbp])
        plain_sbp = _without_partial(tensor.sbp)
        if plain_sbp != tensor.sbp:
            tensor = tensor.to_global(sbp=plain_sbp)
        shards = _distinct_shards(tensor.shape, where.hierarchy, plain_sbp)
        writers = [int(np.array(where.ranks)[c]) for c, _, _ in shards]
        mine = _coordinate(where.ranks, rank)
        writes = [(_shard_file(index, c), _stored(tensor._part())) for c, _, _ in shards if c == mine]
    record["shards"] = [{"file": _shard_file(index, c), "start": list(start), "extent": list(extent), "writer": w}
                        for (c, start, extent), w in zip(shards, writers)]
    return record, writes


def _share_crcs(records, crcs):
    """Sets every shard's "crc32" (dropping "writer") from `crcs`, {tensor index: CRC of the
    shard this rank wrote}: one all-gather of a [world, tensors] table, as every rank writes
    at most one shard of each tensor. Collective over the world."""
    world = env.get_world_size()
    row = np.full((1, max(1, len(records))), -1, np.int64)
    for index, crc in crcs.items():
        row[0, index] = crc
    table = row
    if world > 1:
        table = _copy_of(row).to_global(placement=_placement("cpu", ranks=list(range(world))), sbp=split(0))
        table = table.to_global(sbp=broadcast)._numpy()
    for index, record in enumerate(records):
        for shard in record["shards"]:
            shard["crc32"] = int(table[shard.pop("writer"), index])


def _check_replaceable(path):
    """Refuses to replace anything at `path` but a checkpoint or an empty directory (a mistyped
    path could name a directory of the user's)."""
    if os.path.isdir(path) and not os.path.islink(path) and not os.listdir(path):
        return  # an empty directory made for the checkpoint (torch's DCP saves into one)
    if os.path.lexists(path) and not os.path.isfile(os.path.join(path, META_FILE)):
        raise ValueError(f"[save] '{path}' exists and is not a meshflow checkpoint (no {META_FILE}); "
                         "expected a new path, an empty directory or an earlier checkpoint to replace")


def _replace(new, path, old):
    """Moves the complete checkpoint `new` to `path`, keeping a complete checkpoint at `path`
    or `old` at every moment."""
    if os.path.exists(path):
        if os.path.exists(old):
            shutil.rmtree(old)  # stale: `path` is complete
        os.rename(path, old)
    os.rename(new, path)
    _sync_directory(os.path.dirname(os.path.abspath(path)))
    if os.path.exists(old):
        shutil.rmtree(old)


def _message(call, error):
    """`error` as "[call] ..." (errors raised here already start so)."""
    text = str(error)
    return text if text.startswith(f"[{call}]") else f"[{call}] {type(error).__name__}: {text}"


def _on_rank0(rank, action):
    """The error message of action() on rank 0 ("" when it succeeds or on other ranks)."""
    if rank != 0:
        return ""
    try:
        action()
    except (OSError, ValueError) as error:
        return _message("save", error)
    return ""


def _is_file_object(target):
    return not isinstance(target, (str, bytes, os.PathLike)) and (hasattr(target, "write") or hasattr(target, "read"))


def _save_to_file(state, f):
    """`state` with local tensors only, into an open binary file (io.BytesIO, a file opened
    "wb"): one NumPy .npz stream, its structure as JSON beside the arrays. Objects other than
    containers, tensors and plain values (a whole module: torch.save(model)) are pickled into
    one more array, which load() unpickles only when told weights_only=False (torch's rule);
    a state without them holds no pickle."""
    tensors, objects = [], []
    tree = _encode(state, (), tensors, objects, seen={})
    if any(t.is_global for _, t in tensors):
        raise ValueError("[save] a file object holds local tensors, or global ones broadcast over every rank, only; "
                         "expected a directory path to save split or partial global tensors (each rank writes its "
                         "part)")
    arrays = {f"t{i}": t._numpy() for i, (_, t) in enumerate(tensors)}
    if objects:
        import pickle
        arrays["__objects__"] = np.frombuffer(pickle.dumps(objects, protocol=4), np.uint8)
    from .nn import Parameter
    meta = {"tree": tree, "dtypes": [t.dtype.name for _, t in tensors],
            "devices": [str(t.device) for _, t in tensors],
            # as torch's pickle keeps them: a Parameter loads as one, a tensor requiring grad as a leaf requiring it
            "parameters": [isinstance(t, Parameter) for _, t in tensors],
            "requires_grad": [t.requires_grad for _, t in tensors]}
    np.savez(f, __meta__=np.array(json.dumps(meta)), **arrays)


def _as_saved(t, parameter, requires_grad):
    """A loaded tensor as it was saved: a Parameter, or a leaf requiring grad, or itself."""
    if parameter:
        from .nn import Parameter
        return Parameter(t, requires_grad=requires_grad)
    return t.requires_grad_() if requires_grad else t


def _load_from_file(f, weights_only=None):
    from ._tensor import tensor
    with np.load(f, allow_pickle=False) as data:
        meta = json.loads(str(data["__meta__"]))
        plain = [False] * len(meta["dtypes"])  # what files of older versions held: tensors
        tensors = [_as_saved(tensor(data[f"t{i}"], dtype=dtype, device=device), parameter, requires_grad)
                   for i, (dtype, device, parameter, requires_grad) in enumerate(zip(
                       meta["dtypes"], meta["devices"], meta.get("parameters", plain), meta.get("requires_grad", plain)))]
        objects = _unpickle_objects(data["__objects__"], weights_only) if "__objects__" in data.files else ()
    return _decode(meta["tree"], tensors, objects)


def _unpickle_objects(array, weights_only):
    """The pickled objects of a file save() wrote (a whole module). weights_only=False
    unpickles them as they are, which may run any code the file names; otherwise, as
    torch.load's default, only globals that are data or that the program allowed
    (meshflow.serialization.safe_globals) are taken."""
    import pickle
    if weights_only is False:
        return pickle.loads(array.tobytes())
    from .serialization import weights_only_loads
    return weights_only_loads(array.tobytes())


# A path named as torch.save's files are, holding local tensors only, is one file that the
# calling rank writes alone, as torch.save: a DDP program saves under `if rank == 0:`.
TORCH_FILE_SUFFIXES = (".pt", ".pth", ".bin", ".ckpt", ".tar")
# The names save's and load's collective checks go by: a rank left waiting in one (code under
# `if rank == 0:`) is told what runs on one rank alone instead.
# Its first 120 characters are what the watchdog shows.
SAVE_CALL = ("save of split or partial tensors (collective: save on every rank, or to_global(sbp=broadcast) on "
             "every rank first; a state of local or broadcast tensors to a .pt or .safetensors path is saved "
             "alone)")
LOAD_CALL = "load (collective; with map_location= each rank loads alone)"


def _held_whole(state):
    """`state` with each global tensor replaced by this rank's part, when every global tensor
    in it is broadcast on every axis of a placement of every rank (each rank then holds each
    value whole, as a data-parallel model's); None when one is split, partial or on some ranks
    only (only a collective save has its value everywhere), or when the state cannot be saved
    (the collective path reports it on every rank). It depends on the layouts alone, so every
    rank of a call decides alike."""
    tensors = []
    try:
        _encode(state, (), tensors, [])
    except TypeError:
        return None
    world = env.get_world_size()
    for _, t in tensors:
        if t.is_global and (any(s != broadcast for s in t.sbp) or
                            sorted(np.asarray(t.placement.ranks).ravel().tolist()) != list(range(world))):
            return None
    return _moved(state, lambda t: t._part() if t.is_global else t)


def _all_local(state):
    """Whether `state` holds tensors and plain values only, none of them global. In a job of
    several ranks such a state is each rank's own values, which a collective save could only
    keep rank 0's of: it is one file that the calling rank writes alone, whatever the path, as
    torch.save (DDP's tutorial saves to "model.checkpoint" under `if rank == 0:`). Other
    objects go to a .pt path only, as before."""
    tensors = []
    try:
        _encode(state, (), tensors)
    except TypeError:
        return False
    return not any(t.is_global for _, t in tensors)


def _save_one_file(state, path):
    """`state` into the file `path`, replaced whole (several ranks saving the same state to one
    path each replace it with a complete file)."""
    if os.path.isdir(path):
        raise ValueError(f"[save] '{path}' is a directory (a checkpoint of global tensors); a state of local "
                         "tensors goes into one file there: remove the directory or choose another path")
    temporary = f"{path}.tmp-{os.getpid()}"
    try:
        with open(temporary, "wb") as f:
            _save_to_file(state, f)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


def save(state, path, format=None, metadata=None):
    """Writes `state` (a dict of tensors and plain values, possibly nested) to the directory
    `path`, replacing an earlier checkpoint there only once the new one is complete.
    Collective over the world. `path` may also be an open binary file (io.BytesIO), for a
    state of local tensors, as torch.save's; so is a path ending as torch's files do (.pt,
    .pth, .bin, .ckpt, .tar) for a state whose tensors are local or global ones broadcast over
    every rank (a data-parallel model's): one file of the values the calling rank holds, which
    it writes alone, not collective (DDP's `if rank == 0: save(model.state_dict(), "model.pt")`).
    A state with split or partial tensors, or tensors on some ranks only, saved to such a path
    is a collective save into a directory of that name, as any other path. In a job of
    several ranks a state without global tensors is that one file whatever the path (each
    rank's own values; the calling rank writes them alone).
    Those one-file forms also take other objects (torch.save(model) of a whole module): they
    are pickled, and load() restores them only with weights_only=False, as torch.load.

    format: "meshflow" (the directory above), "safetensors" (one file, which Hugging Face's
    safetensors library and load() read), or None: "safetensors" when `path` ends with
    ".safetensors", else "meshflow". A safetensors file holds a flat {str: tensor} (a
    state_dict), with `metadata` (a {str: str}) in its header; global tensors are gathered
    one at a time to their full value (collective) and rank 0 writes the file; a state of
    local or broadcast tensors, as a .pt path's, is written by the calling rank alone.
    """
    if format is None:
        by_suffix = not _is_file_object(path) and os.fsdecode(path).endswith(".safetensors")
        format = "safetensors" if by_suffix else "meshflow"
    if format not in ("meshflow", "safetensors"):
        raise ValueError(f"[save] format={format!r}; expected 'meshflow', 'safetensors' or None")
    if metadata is not None and format != "safetensors":
        raise ValueError("[save] metadata= goes into a safetensors header; expected format='safetensors'")
    if format == "safetensors":
        if _is_file_object(path):
            raise ValueError("[save] format='safetensors' writes a file by its path; expected a path")
        held = _held_whole(state)  # a data-parallel state: the calling rank writes its values alone
        if held is not None:
            error = _safetensors.write(held, os.fspath(path), metadata, alone=True)
            if error:
                raise ValueError(error)
            return None
        _C.agree(_safetensors.write(state, os.fspath(path), metadata), SAVE_CALL)
        return None
    if _is_file_object(path):
        held = _held_whole(state)  # a data-parallel state: the values this rank holds, as a .pt path's
        return _save_to_file(state if held is None else held, path)
    path = os.fspath(path)
    if path.endswith(TORCH_FILE_SUFFIXES) or env.get_world_size() > 1 and _all_local(state):
        held = _held_whole(state)
        if held is not None:
            return _save_one_file(held, path)
    return save_directory(state, path)


def save_directory(state, path):
    """save() into the directory `path` whatever the state holds (a state of local tensors
    too, which rank 0 writes): torch.distributed.checkpoint's save. Collective over the world."""
    rank = env.get_rank()
    tensors, tree, error = [], None, ""
    try:
        tree = _encode(state, (), tensors)
    except TypeError as e:
        error = f"[save] {e}"
    _C.agree(error, SAVE_CALL)

    new, old = path + TMP_SUFFIX, path + OLD_SUFFIX

    def make_new_directory():
        _check_replaceable(path)
        if os.path.lexists(new):
            shutil.rmtree(new)  # left by a save that crashed
        os.makedirs(new)

    _C.agree(_on_rank0(rank, make_new_directory), SAVE_CALL)

    records, crcs, error = [], {}, ""
    for index, (tensor_path, tensor) in enumerate(tensors):
        record, writes = _plan_tensor(index, tensor_path, tensor, rank)
        records.append(record)
        if error:
            continue  # still take part in the other tensors' conversions
        try:
            for file, array in writes:
                crcs[index] = _crc32(array)
                _write_shard(os.path.join(new, file), array)
        except Exception as e:  # noqa: BLE001 - any failure must reach the other ranks
            error = f"[save] writing '{_name(tensor_path)}' failed on rank {rank}: {type(e).__name__}: {e}"
    _share_crcs(records, crcs)
    if not error:
        error = _on_rank0(rank, lambda: _write_meta(new, tree, records))
    try:
        _C.agree(error, SAVE_CALL)
    except ValueError:
        _on_rank0(rank, lambda: shutil.rmtree(new, ignore_errors=True))
        raise
    _C.agree(_on_rank0(rank, lambda: _replace(new, path, old)), SAVE_CALL)


def _contents_crc32(meta):
    """The CRC-32 of the checkpoint's contents (state and tensors) in a canonical JSON form,
    which a parsed file gives back exactly."""
    canonical = json.dumps([meta["state"], meta["tensors"]], sort_keys=True, separators=(",", ":"))
    return zlib.crc32(canonical.encode())


def _write_meta(directory, tree, records):
    meta = {"format": FORMAT, "version": VERSION, "state": tree, "tensors": records}
    meta["crc32"] = _contents_crc32(meta)
    _write_durably(os.path.join(directory, META_FILE), lambda f: f.write(json.dumps(meta).encode()))
    _sync_directory(directory)


# ---------------------------------------------------------------------------------------------
# load

def _read_meta(path):
    """(directory, metadata) of the checkpoint at `path`, or at its ".old-save" directory when
    a save crashed between its two renames."""
    for directory in (path, path + OLD_SUFFIX):
        file = os.path.join(directory, META_FILE)
        if os.path.isfile(file):
            try:
                with open(file, "rb") as f:
                    meta = json.loads(f.read())
            except (UnicodeDecodeError, json.JSONDecodeError) as e:
                raise ValueError(f"[load] '{file}' is damaged or truncated (not JSON: {e})") from None
            if (not isinstance(meta, dict) or meta.get("format") != FORMAT
                    or meta.get("version") not in READABLE_VERSIONS):
                raise ValueError(f"[load] '{file}' is not a meshflow checkpoint of version "
                                 f"{' or '.join(map(str, READABLE_VERSIONS))}")
            if meta["version"] >= 2 and meta.get("crc32") != _contents_crc32(meta):
                raise ValueError(f"[load] '{file}' is damaged: its contents do not match their checksum")
            _check_index(file, meta)
            return directory, meta
    kind = ValueError if os.path.exists(path) else _NoCheckpoint
    raise kind(f"[load] no checkpoint at '{path}'; expected a directory written by meshflow.save")


class _NoCheckpoint(FileNotFoundError, ValueError):
    """load of a path where nothing is: torch's FileNotFoundError (checkpoint-resume code
    catches it), and the ValueError meshflow raised before."""


def _check_index(file, meta):
    """Refuses an index that names a file outside its directory, or sizes that overflow or lie
    outside their tensor. A checkpoint may come from elsewhere: its checksum says that it is
    whole, not that it is honest, and load must never read elsewhere or allocate without end."""
    def is_ints(values):
        return isinstance(values, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in values)

    def refuse(what, expected):
        raise ValueError(f"[load] '{file}' lists {what}; expected {expected}")

    try:
        for record in meta["tensors"]:
            path, shape = record["path"], record["shape"]
            name = f"'{_name(path)}'" if isinstance(path, list) else repr(path)
            if not is_ints(shape) or not all(0 <= d <= INT64_MAX for d in shape):
                refuse(f"{name} with shape {shape!r}", "a list of sizes >= 0")
            if math.prod(shape) * _storage_dtype(record["dtype"]).itemsize > INT64_MAX:
                refuse(f"{name} with shape {shape}, whose size in bytes overflows int64", "a shape that fits memory")
            for shard in record["shards"]:
                file_name, start, extent = shard["file"], shard["start"], shard["extent"]
                if (not isinstance(file_name, str) or file_name in ("", ".", "..")
                        or any(c in file_name for c in "/\\\0")):
                    refuse(f"the shard file {file_name!r} for {name}",
                           "a plain file name in the checkpoint's directory")
                if (not is_ints(start) or not is_ints(extent) or not len(start) == len(extent) == len(shape)
                        or not all(0 <= a and 0 <= n and a + n <= d for a, n, d in zip(start, extent, shape))):
                    refuse(f"the shard '{file_name}' of {name} at start {start!r} with extent {extent!r}",
                           f"a box inside the shape {shape}")
    except (KeyError, TypeError, AttributeError) as e:  # not the structure save writes
        raise ValueError(f"[load] '{file}' is not a valid index ({type(e).__name__}: {e})") from None


def _saved_tensor(record):
    is_global = record["ranks"] is not None
    return SavedTensor(shape=tuple(record["shape"]), dtype=to_dtype(record["dtype"]),
                       ranks=record["ranks"] if is_global else None,
                       sbp=tuple(_sbp_from_name(s) for s in record["sbp"]) if is_global else None)


def _target_layout(name, saved, record, placement, sbp, like):
    """(placement, nd_sbp) to load one tensor into, or (None, None) for a local tensor."""
    if like is not None:
        if like.shape != saved.shape or like.dtype != saved.dtype:
            raise ValueError(f"[load] '{name}' has shape {list(saved.shape)} and dtype {saved.dtype.name} in the "
                             f"checkpoint; the template expects shape {list(like.shape)} and dtype {like.dtype.name}")
        return (like.placement, like.sbp) if like.is_global else (None, None)
    where = placement(name, saved) if callable(placement) else placement
    if (isinstance(where, str) and where == LOCAL) or (where is None and not saved.is_global):
        return None, None
    if where is None:
        highest = int(np.max(saved.ranks))
        if highest >= env.get_world_size() and env.get_world_size() == 1:
            # One process cannot hold the saved placement: it gets what torch.load gives, the
            # full value, as a tool or a notebook reading a job's checkpoint expects.
            return None, None
        if highest >= env.get_world_size():
            raise ValueError(f"[load] '{name}' was saved on ranks {saved.ranks}, the world has "
                             f"{env.get_world_size()} ranks; pass placement= to load it elsewhere, or "
                             "map_location='cpu' for the full values as local tensors")
        where = _placement(record["device"], ranks=saved.ranks)
    if not isinstance(where, _C.Placement):
        raise TypeError(f"[load] the placement for '{name}' is {where!r}; expected a meshflow.placement, "
                        f"'{LOCAL}' or None")
    where = _placement._wrap(where)
    nd_sbp = sbp(name, saved) if callable(sbp) else sbp
    if nd_sbp is None:
        keeps_saved = saved.is_global and len(saved.sbp) == len(where.hierarchy)
        nd_sbp = saved.sbp if keeps_saved else (broadcast,) * len(where.hierarchy)
    nd_sbp = tuple(nd_sbp) if isinstance(nd_sbp, (list, tuple)) else (nd_sbp,)
    if len(nd_sbp) != len(where.hierarchy) or any(s.is_split and s.dim >= len(saved.shape) for s in nd_sbp):
        raise ValueError(f"[load] sbp {nd_sbp} for '{name}' does not fit a tensor of {len(saved.shape)} dims on "
                         f"hierarchy {list(where.hierarchy)}; expected one sbp per axis, split dims below the ndim")
    return where, nd_sbp


def _read_shard(file, shard, dtype):
    """The shard's array (memory-mapped), checked against what the checkpoint lists."""
    try:
        regular = stat.S_ISREG(os.lstat(file).st_mode)
        data = np.load(file, mmap_mode="r", allow_pickle=False) if regular else None
    except FileNotFoundError:
        raise ValueError(f"[load] '{file}' is missing; the checkpoint is incomplete") from None
    except (ValueError, OSError) as e:  # a damaged header, a file shorter than its header says
        raise ValueError(f"[load] '{file}' is damaged or truncated ({type(e).__name__}: {e})") from None
    if not regular:  # a link could lead out of the checkpoint, a FIFO block forever
        raise ValueError(f"[load] '{file}' is not a regular file; expected a shard written by meshflow.save")
    if list(data.shape) != shard["extent"] or data.dtype != dtype:
        raise ValueError(f"[load] '{file}' holds {data.dtype}{list(data.shape)}; the checkpoint lists "
                         f"{dtype}{shard['extent']}")
    if "crc32" in shard and _crc32(data) != shard["crc32"]:
        raise ValueError(f"[load] '{file}' is damaged: its data do not match their checksum")
    return data


def _read_box(directory, record, start, extent):
    """The region (start, extent) of a saved tensor, from the parts of the shards it overlaps.
    The shards are opened and checked before the region is allocated, so an index listing
    sizes that no file holds raises instead of allocating them."""
    dtype, size = _storage_dtype(record["dtype"]), math.prod(extent)
    if size == 0:
        return np.empty(extent, dtype)
    pieces = []
    for shard in record["shards"]:
        lo = [max(a, b) for a, b in zip(start, shard["start"])]
        hi = [min(a + n, b + m) for a, n, b, m in zip(start, extent, shard["start"], shard["extent"])]
        if any(l >= h for l, h in zip(lo, hi)):
            continue
        pieces.append((_read_shard(os.path.join(directory, shard["file"]), shard, dtype), shard["start"], lo, hi))
    filled = sum(math.prod(h - l for l, h in zip(lo, hi)) for _, _, lo, hi in pieces)
    if filled != size:
        raise ValueError(f"[load] the shards of '{_name(record['path'])}' cover {filled} of the {size} "
                         "elements needed; the checkpoint is incomplete")
    # Zeros, not empty: shards that overlap (only a crafted index lists them) may leave holes,
    # which must not show this process's memory.
    out = np.zeros(extent, dtype)
    for data, shard_start, lo, hi in pieces:
        out[tuple(slice(l - s, h - s) for l, h, s in zip(lo, hi, start))] = \
            data[tuple(slice(l - s, h - s) for l, h, s in zip(lo, hi, shard_start))]
    return out


def _local_part(directory, record, where, nd_sbp, rank):
    """This rank's part of a tensor in the layout (where, nd_sbp) with partial axes loaded as
    broadcast; the full value for a local tensor; an empty array outside the placement."""
    shape = record["shape"]
    if where is None:
        return _read_box(directory, record, [0] * len(shape), shape)
    coordinate = _coordinate(where.ranks, rank)
    if coordinate is None:
        return np.zeros((0,) * len(shape), _storage_dtype(record["dtype"]))
    start, extent = _local_box(shape, where.hierarchy, _without_partial(nd_sbp), coordinate)
    return _read_box(directory, record, start, extent)


def _mover(map_location):
    """What torch.load's map_location does to each tensor, loaded on the CPU: a device (or its
    name) moves it there; a dict {saved device: device} moves those saved on a key's device;
    a function f(tensor, saved device name) returns the tensor to keep (torch passes a storage
    and its location: `lambda storage, loc: storage` keeps it where it was loaded)."""
    if isinstance(map_location, (str, _device.device)):
        target = _device.device(map_location)
        return lambda t: t.to(target)
    if isinstance(map_location, dict):
        table = {str(_device.device(k)) if isinstance(k, _device.device) else str(k): _device.device(v)
                 for k, v in map_location.items()}
        return lambda t: t.to(table[str(t.device)]) if str(t.device) in table else t

    if callable(map_location):
        def call(t):
            moved = map_location(t, str(t.device))
            if not isinstance(moved, Tensor):
                raise TypeError(f"[load] map_location returned {type(moved).__name__}; expected the tensor it was "
                                "given, or that tensor moved to a device")
            return moved
        return call
    raise TypeError(f"[load] map_location={map_location!r}; expected a device or its name (\"cpu\"), a dict "
                    "{saved device: device} or a function (tensor, saved device name) -> tensor")


def _moved(state, move):
    """`state` with each tensor replaced by move(tensor)."""
    if isinstance(state, Tensor):
        return move(state)
    if isinstance(state, dict):
        # a copy keeps the mapping's type and its own state (a Counter's counts, a
        # defaultdict's factory); rebuilding from pairs would count the pairs in a Counter
        moved = copy.copy(state)
        for key, value in state.items():
            moved[key] = _moved(value, move)
        return moved
    if isinstance(state, tuple) and hasattr(state, "_fields"):  # a namedtuple takes its fields
        return type(state)(*(_moved(value, move) for value in state))
    if isinstance(state, (list, tuple)):
        return type(state)(_moved(value, move) for value in state)
    return state


def _load_single_file(path, weights_only=None):
    """The state in the file at `path`, by what its first bytes say it is."""
    with open(path, "rb") as f:
        first = f.read(16)
    if _safetensors.is_safetensors(first, os.path.getsize(path)):
        return _safetensors.read(path)
    kind = _torch_file.sniff(first)
    if kind == "zip" and _is_saved_npz(path):
        return _load_from_file(path, weights_only)
    if kind is not None:
        return _torch_file.read(path, kind)
    raise ValueError(f"[load] '{path}' is a file meshflow does not read; expected a safetensors file, a torch.save "
                     "file, a file meshflow.save wrote to a file object, or a checkpoint directory")


def _is_saved_npz(path):
    """Whether the zip file at `path` is what save() writes to a file object (a NumPy .npz)."""
    try:
        with zipfile.ZipFile(path) as archive:
            return "__meta__.npy" in archive.namelist()
    except zipfile.BadZipFile:
        return False


def load(path, placement=None, sbp=None, template=None, map_location=None, weights_only=None, mmap=None):
    """The state saved at `path`, its tensors in the layout asked for. Collective over the world
    (unless every tensor loads local, below).

    placement: None (each global tensor on the placement it was saved from, which must fit
    the world; local ones local), a meshflow.placement, "local" (local tensors holding the
    full value), or a function (name, SavedTensor) -> one of these.
    sbp: None (the saved SBP when the placement has as many axes, else broadcast), one sbp
    or a tuple of them, or a function (name, SavedTensor) -> one of these. Partial targets
    are loaded as broadcast and converted.
    template: a state like the saved one; each of its tensors gives the layout of the saved
    tensor at the same place (its shape and dtype must match) instead of placement and sbp.
    Names are the keys on the way to a tensor joined by dots: "model.layers.0.weight".
    map_location: as torch.load's (a device or its name, "cpu"; a dict {saved device:
    device}; a function (tensor, saved device name) -> tensor): every tensor local, holding
    the full value, where map_location puts it (so not with placement, sbp or template).
    A load into local tensors (map_location, or placement="local") is not collective: each
    rank reads the files alone, and some ranks only may make it. In a world of
    one process a tensor saved on more ranks loads so by default too.
    `path` may also be an open binary file that save() wrote (local tensors; torch.load's
    map_location is accepted and ignored there; weights_only=False lets objects that save()
    pickled (a whole module) load, as torch.load's, which refuses them otherwise).

    `path` may also name one file: a safetensors file, a torch.save file (`.pt`, `.bin`: zip
    or legacy; unpickled without running code, as torch.load(weights_only=True), so
    weights_only is accepted and ignored) or a file that save() wrote to a file object or a
    torch-named path (weights_only=False as above). Its
    tensors load local with their full values (on map_location's device), for
    model.load_state_dict to convert into the parameters' layouts; each rank reads the file
    alone (not collective). A safetensors file gives {name: tensor} (its "__metadata__" is
    left out). mmap (torch.load's) is accepted: the file is read whole, as its mapped pages
    would be when the tensors are used.
    """
    if _is_file_object(path):
        return _load_from_file(path, weights_only)
    if os.path.isfile(path):
        if placement is not None or sbp is not None or template is not None:
            raise ValueError(f"[load] '{os.fspath(path)}' is one file, whose tensors load local with their full "
                             "values; expected no placement=, sbp= or template= (model.load_state_dict converts "
                             "each value to its parameter's layout)")
        state = _load_single_file(os.fspath(path), weights_only)
        return state if map_location is None else _moved(state, _mover(map_location))
    move = None
    if map_location is not None:
        move = _mover(map_location)
        if placement is not None or sbp is not None or template is not None:
            raise ValueError("[load] map_location= loads every tensor local with its full value; expected it "
                             "without placement=, sbp= or template=")
        placement = LOCAL
    path = os.fspath(path)
    rank = env.get_rank()
    # Into local tensors (map_location=, placement="local") each rank reads what it needs alone,
    # so rank-0-only code may load (DDP's `if rank == 0: torch.load(...)`); otherwise the ranks
    # raise any rank's error together.
    alone = isinstance(placement, str) and placement == LOCAL

    def settle(error, kind=ValueError):
        try:
            if not alone:
                _C.agree(error, LOAD_CALL)
            elif error:
                raise ValueError(error)
        except ValueError as e:
            raise kind(str(e)) from None

    error, meta, directory, missing = "", None, None, False
    try:
        directory, meta = _read_meta(path)
    except (OSError, ValueError) as e:
        error = _message("load", e)
        missing = isinstance(e, _NoCheckpoint)
    settle(error, _NoCheckpoint if missing else ValueError)

    records = meta["tensors"]
    templates = _tensors_in(template)
    layouts, parts, error = [], [], ""
    try:
        for record in records:
            path_in_state = tuple(record["path"])
            layouts.append(_target_layout(_name(path_in_state), _saved_tensor(record), record, placement, sbp,
                                          templates.pop(path_in_state, None)))
        if templates:
            names = ", ".join(f"'{_name(p)}'" for p in templates)
            raise ValueError(f"[load] the template's tensor(s) {names} are not in the checkpoint at '{path}'")
        for record, (where, nd_sbp) in zip(records, layouts):
            parts.append(_local_part(directory, record, where, nd_sbp, rank))
    except Exception as e:  # noqa: BLE001 - user functions and the disk may fail on one rank only
        error = _message("load", e)
    settle(error)

    tensors = []
    for part, (where, nd_sbp), record in zip(parts, layouts, records):
        tensor = _from_stored(np.require(part, requirements="C"), record["dtype"])
        if where is not None:
            tensor = tensor.to_global(placement=where, sbp=_without_partial(nd_sbp))
            if any(s.is_partial for s in nd_sbp):
                tensor = tensor.to_global(sbp=nd_sbp)
        elif move is not None:
            tensor = move(tensor)
        tensors.append(tensor)
    return _decode(meta["state"], tensors)
