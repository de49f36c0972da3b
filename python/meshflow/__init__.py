"""meshflow: global tensors over a mesh of processes.

`import meshflow` starts no communication: MPI starts on first use (a placement, a global
tensor, `env.get_rank()`), so `python3 -m meshflow.launch` can still exec `mpirun`.
"""
import atexit as _atexit
import operator as _operator
import os as _os
import sys as _sys


def _share_the_host_s_cores():
    """A rank started by mpirun whose thread counts are unset takes its host's cores divided
    by its host's ranks, before _C loads OpenBLAS and oneDNN, which read them once: ranks on
    one host would otherwise each start a thread per core and oversubscribe it."""
    local_size = _os.environ.get("OMPI_COMM_WORLD_LOCAL_SIZE")
    if local_size is None or not local_size.isdigit() or int(local_size) < 1:
        return
    threads = str(max(1, len(_os.sched_getaffinity(0)) // int(local_size)))
    _os.environ.setdefault("OMP_NUM_THREADS", threads)
    _os.environ.setdefault("OPENBLAS_NUM_THREADS", _os.environ["OMP_NUM_THREADS"])


_share_the_host_s_cores()


def _whole_lines_under_mpirun():
    """A rank's stdout and stderr write each line at once: mpirun merges every rank's output,
    and an unbuffered stream (PYTHONUNBUFFERED, python -u) writes a print's text and its newline
    apart, so another rank's line could land between them. Still flushed at every newline."""
    if _os.environ.get("OMPI_COMM_WORLD_SIZE") is None:
        return
    for stream in (_sys.stdout, _sys.stderr):
        if getattr(stream, "write_through", False) and hasattr(stream, "reconfigure"):
            stream.reconfigure(line_buffering=True, write_through=False)


_whole_lines_under_mpirun()


def _torchrun_variables_under_mpirun():
    """A rank started by mpirun itself (not by meshflow.launch, which sets them before the
    script starts) finds torchrun's RANK, WORLD_SIZE, LOCAL_RANK and LOCAL_WORLD_SIZE once it
    imports meshflow, for scripts that read them after their imports; mpirun's values win
    over any left in the environment, as the launcher's do. Where every rank is on this host,
    MASTER_ADDR and MASTER_PORT default to the launcher's (127.0.0.1, torchrun's 29500): a
    script may read them, though no rendezvous uses them."""
    for name, mpi in (("RANK", "OMPI_COMM_WORLD_RANK"), ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE"),
                      ("LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK"), ("LOCAL_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE")):
        if mpi in _os.environ:
            _os.environ[name] = _os.environ[mpi]
    local, world = _os.environ.get("OMPI_COMM_WORLD_LOCAL_SIZE"), _os.environ.get("OMPI_COMM_WORLD_SIZE")
    if world is not None and local == world:
        _os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        _os.environ.setdefault("MASTER_PORT", "29500")


_torchrun_variables_under_mpirun()

from . import _C  # noqa: E402
from ._C import OpError, OpIndexError  # noqa: F401  (an op's errors: RuntimeError and ValueError)
from ._C import OutOfMemoryError  # noqa: F401  (torch.OutOfMemoryError, a RuntimeError)
from ._C import CollectiveMismatchError  # noqa: F401  (ranks in different calls: RuntimeError and ValueError)
_C.memory_limit_from_env()  # a malformed MESHFLOW_MEMORY_LIMIT raises here, not at some allocation
from . import env, sbp, version
from .version import __version__  # noqa: F401  (torch.__version__)
from ._dtype import dtype, float32, float64, int32, int64, bfloat16
from ._dtype import bool_ as bool  # noqa: A001 (torch.bool)
from ._dtype import float16, half
from ._dtype import uint8, int8, int16
from ._dtype import complex64, complex128, cfloat, cdouble
from ._dtype import qint8, quint8, qint32
# torch's other names of the dtypes (torch.float, torch.long, ...).
from ._dtype import float32 as float, float64 as double, int32 as int, int64 as long, int16 as short  # noqa: A001
from ._autocast import autocast
from ._placement import placement
from ._device import device, device_types
from ._tensor import Tensor, tensor, from_numpy, no_grad, is_grad_enabled
from ._tensor import (FloatTensor, DoubleTensor, HalfTensor, BFloat16Tensor, IntTensor, LongTensor, ShortTensor, CharTensor,
                      ByteTensor, BoolTensor)
from . import autograd
from .autograd import enable_grad, set_grad_enabled, inference_mode, is_inference_mode_enabled
from ._ops_elementwise import (add, sub, mul, div, floor_divide, pow, maximum, minimum, eq, ne, lt, le, gt, ge,
                               where, neg, abs, relu, trunc, exp, log, sqrt, rsqrt, tanh, sigmoid, cast, clamp, clip,
                               floor, ceil, remainder, silu, softplus, lerp)
from ._ops_elementwise import (logical_and, logical_or, logical_xor, logical_not, bitwise_and, bitwise_or,
                               bitwise_xor, bitwise_not, bitwise_left_shift, bitwise_right_shift, isnan, isinf,
                               isfinite, masked_fill)
from ._promotion import result_type, promote_types, get_default_dtype, set_default_dtype, can_cast
from ._ops_matmul import *  # noqa: F401,F403
from . import _ops_shape, _ops_reduce, _ops_creation, _ops_matmul, _ops_select
from ._ops_shape import *  # noqa: F401,F403
from ._ops_reduce import *  # noqa: F401,F403
from ._ops_select import *  # noqa: F401,F403
from ._ops_creation import *  # noqa: F401,F403
from . import _ops_math
from ._ops_math import *  # noqa: F401,F403
from . import _ops_index, _ops_random, _ops_einsum
from ._ops_index import *  # noqa: F401,F403  (its where(condition) also takes one argument)
from ._ops_random import *  # noqa: F401,F403
from ._ops_einsum import einsum
from . import _api
from ._api import *  # noqa: F401,F403
from . import _memory
from ._memory import *  # noqa: F401,F403
from . import nn, optim, linalg, cuda, utils, amp, cpu, distributed, multiprocessing, backends, testing, random
from . import func
from .func import vmap  # torch.vmap
globals().update(linalg.FUNCTIONS)  # svd_lowrank, pca_lowrank
globals().update(linalg.TOP_LEVEL)  # torch's top-level spellings: inverse, det, logdet, slogdet, cholesky, svd, qr
from . import _foreach
globals().update(_foreach.FUNCTIONS)  # torch._foreach_mul_ and kin (private in torch too)
from ._tensor_more import *  # noqa: F401,F403: torch's other spellings of existing ops
from . import _ops_surface
from ._ops_surface import *  # noqa: F401,F403
from . import _ops_port
from ._ops_port import *  # noqa: F401,F403
from . import compiler, _dynamo, jit, ao, quantization
from .ao.quantization import fake_quantize_per_tensor_affine, fake_quantize_per_channel_affine  # noqa: E402
from . import _ops_port3
from ._ops_port3 import *  # noqa: F401,F403
from . import _ops_port4
from ._ops_port4 import *  # noqa: F401,F403
from . import _complex, fft, _stft
from ._complex import *  # noqa: F401,F403
from ._stft import stft, istft
from . import special, distributions, profiler, futures, accelerator, serialization
globals().update(special.TOP_LEVEL)  # torch.igamma, torch.igammac
from . import _torch_paths  # noqa: E402
_torch_paths.install(_sys.modules[__name__])  # torch's module paths (torch.nn.modules.loss, ...)
from . import _inplace  # after every module that attaches Tensor methods: it wraps them
_inplace.view_functions(globals())
from ._checkpoint import save, load


def infer_cache_stats():
    """Hits and misses of the SBP inference cache (shared by every op)."""
    return _C.infer_cache_stats()


def comm_stats():
    """What this rank issued so far: a call count per collective and the payload bytes sent."""
    return _C.comm_stats()


def synchronize():
    """Waits until every op issued so far has run; raises the first error one of them hit
    (ops run asynchronously: errors inside kernels and collectives surface here, or when a
    value is read with numpy(), item() or print)."""
    _C.synchronize()


def set_grad_bucket_size(nbytes):
    """backward() all-reduces the gradients of data-parallel (broadcast) weights in buckets
    of about `nbytes` (default 1 MiB), each issued as soon as it fills, on the comm stream
    while backward goes on; 0 converts every gradient alone. Returns the previous size."""
    previous = _C.grad_bucket_bytes()
    _C.set_grad_bucket_bytes(_operator.index(nbytes))
    return previous


def _finish_queued_work():
    # At exit, before the interpreter goes: queued work may still hold NumPy arrays.
    _C.mark_exiting()  # a rank left waiting in a collective this one never made is told it ended
    try:
        _C.finish_queued_work()
    except Exception as e:  # an error nobody read: say so, and end non-zero, rather than lose it
        print(f"meshflow: an error was raised by queued work at exit: {e}", file=_sys.stderr)
        _C.fail_at_exit(1)


_atexit.register(_finish_queued_work)


def _abort_job_on_uncaught_error(kind, value, tb):
    # An uncaught error on one rank would leave the others waiting in a collective forever:
    # print it, then end every rank of the job. One that every rank raised together (an out
    # of memory read on every rank) ends each rank alike: rank 0 prints it, the others one
    # line each, and every rank exits with status 1 through the ordinary exit.
    if _C.initialized() and _C.world_size() > 1:
        if _C.raised_on_every_rank(str(value)):
            if _C.world_rank() != 0:
                print(f"[rank {_C.world_rank()}] {kind.__module__}.{kind.__qualname__}: {value}", file=_sys.stderr)
                return
        else:
            import traceback
            text = "".join(traceback.format_exception(kind, value, tb))
            _C.abort(f"[rank {_C.world_rank()}] {text}meshflow: aborting the job after an uncaught error on rank "
                     f"{_C.world_rank()}", 1)
    _previous_excepthook(kind, value, tb)


_previous_excepthook = _sys.excepthook
_sys.excepthook = _abort_job_on_uncaught_error

__all__ = ["Tensor", "tensor", "from_numpy", "no_grad", "is_grad_enabled", "placement", "device", "device_types", "sbp", "env", "dtype", "float32", "float64", "int32",
           "int64", "comm_stats", "infer_cache_stats", "synchronize", "set_grad_bucket_size", "add", "sub", "mul", "div", "matmul",
           "floor_divide", "pow", "maximum", "minimum", "eq", "ne", "lt", "le", "gt", "ge", "where", "neg", "abs", "relu",
           "trunc", "exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "cast", "nn", "save", "load"]
__all__ += ["autograd", "optim", "enable_grad", "set_grad_enabled", "inference_mode", "is_inference_mode_enabled"]
__all__ += _ops_shape.__all__ + _ops_reduce.__all__ + _ops_creation.__all__ + [
    "clamp", "clip", "floor", "ceil", "remainder", "silu", "softplus", "lerp"] + [
    "bool", "bfloat16", "float16", "half", "uint8", "int8", "int16", "short",
    "logical_and", "logical_or", "logical_xor", "logical_not",
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_left_shift", "bitwise_right_shift",
    "isnan", "isinf", "isfinite", "masked_fill",
    "result_type", "promote_types", "get_default_dtype", "set_default_dtype", "can_cast"] + [
    n for n in _ops_matmul.__all__ if n != "matmul"] + _ops_select.__all__
__all__ += _ops_math.__all__
__all__ += _complex.__all__ + _stft.__all__ + ["complex64", "complex128", "cfloat", "cdouble", "fft"]
__all__ += _tensor_more.__all__ + _ops_surface.__all__ + _ops_port.__all__ + _ops_port3.__all__ + _ops_port4.__all__
__all__ += list(linalg.TOP_LEVEL) + list(linalg.FUNCTIONS)
__all__ += _ops_index.__all__ + _ops_random.__all__ + ["einsum"] + _api.__all__ + _memory.__all__ + ["OutOfMemoryError"] + [
    "linalg", "cuda", "accelerator", "serialization", "cpu", "amp", "utils", "profiler", "backends", "testing", "special", "random", "func", "vmap", "distributions", "compiler", "jit", "ao", "quantization", "fake_quantize_per_tensor_affine", "fake_quantize_per_channel_affine", "qint8", "quint8", "qint32", "float", "double",
    "int", "long", "FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "IntTensor",
    "LongTensor", "ShortTensor", "CharTensor", "ByteTensor", "BoolTensor"]

from . import sparse  # noqa: E402
sparse._install(_sys.modules[__name__])  # torch.sparse_coo_tensor, Tensor.to_sparse, mm of a sparse operand
__all__ += ["sparse", "sparse_coo_tensor", "sparse_coo", "spmm"]

from . import _numpy_names
_numpy_names.install(globals(), __all__, Tensor)  # torch's `axis=` and `keepdims=` spellings
