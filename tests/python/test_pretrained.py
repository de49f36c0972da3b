"""Pretrained weights: mf.load of safetensors files and of torch.save files (zip and legacy),
mf.save to safetensors, and tied weights in state_dict.

The safetensors files and the damaged or malicious torch files are written here byte by
byte (the formats are small); data/torch_*.pt were written by PyTorch itself
(data/make_torch_fixtures.py), since CI has neither torch nor safetensors. That our
safetensors files read back in the safetensors library was checked by hand.
"""
import collections
import io
import json
import os
import pickle
import struct
import zipfile

import numpy as np
import pytest

import meshflow as mf
from meshflow import nn

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def values(t):
    return t.numpy().tolist()


# ---------------------------------------------------------------------------------------------
# safetensors

def write_safetensors(path, tensors, metadata=None, header_edit=None):
    """A safetensors file of {name: (dtype code, shape, bytes)}, as the format's spec lays it out."""
    header, body = {}, b""
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, (code, shape, data) in tensors.items():
        header[name] = {"dtype": code, "shape": shape, "data_offsets": [len(body), len(body) + len(data)]}
        body += data
    if header_edit:
        header_edit(header)
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + body)
    return path


def test_safetensors_loads_every_dtype_meshflow_has(tmp_path):
    bf16 = np.array([1.5, -2.25], np.float32).view(np.uint32) >> 16  # exact in bfloat16
    path = write_safetensors(tmp_path / "model.safetensors", {
        "f32": ("F32", [2, 3], np.arange(6, dtype="<f4").tobytes()),
        "f64": ("F64", [2], np.array([1.0, 2.5], "<f8").tobytes()),
        "f16": ("F16", [2], np.array([0.5, 3.0], "<f2").tobytes()),
        "bf16": ("BF16", [2], bf16.astype("<u2").tobytes()),
        "i64": ("I64", [3], np.array([-1, 0, 2**40], "<i8").tobytes()),
        "i32": ("I32", [2], np.array([-7, 7], "<i4").tobytes()),
        "bool": ("BOOL", [3], bytes([1, 0, 1])),
        "scalar": ("F32", [], np.array(4.0, "<f4").tobytes()),
        "empty": ("F32", [0, 4], b""),
    }, metadata={"format": "pt"})
    state = mf.load(path)
    assert list(state) == ["f32", "f64", "f16", "bf16", "i64", "i32", "bool", "scalar", "empty"]  # file order
    expected = {"f32": ("float32", [[0, 1, 2], [3, 4, 5]]), "f64": ("float64", [1.0, 2.5]),
                "f16": ("float16", [0.5, 3.0]), "bf16": ("bfloat16", [1.5, -2.25]),
                "i64": ("int64", [-1, 0, 2**40]), "i32": ("int32", [-7, 7]), "bool": ("bool", [True, False, True]),
                "scalar": ("float32", 4.0), "empty": ("float32", [])}
    for name, (dtype, value) in expected.items():
        assert state[name].dtype == getattr(mf, dtype if dtype != "bool" else "bool"), name
        assert values(state[name]) == value, name
        assert state[name].is_local and not state[name].requires_grad
    assert tuple(state["empty"].shape) == (0, 4) and tuple(state["scalar"].shape) == ()


def test_safetensors_refuses_a_dtype_meshflow_lacks_naming_the_tensor(tmp_path):
    path = write_safetensors(tmp_path / "c.safetensors", {"ok": ("F32", [1], b"\0" * 4),
                                                           "spectrum": ("F8_E5M2", [1], b"\0")})
    with pytest.raises(ValueError, match=r"the tensor 'spectrum' has the dtype F8_E5M2 \(float8_e5m2\), which meshflow "
                                         r"lacks; expected one of F64, F32"):
        mf.load(path)


@pytest.mark.parametrize("edit, error", [
    (lambda h: h["w"].update(data_offsets=[0, 400]), r"'w' lies at bytes \[0, 400\) of 16"),
    (lambda h: h["w"].update(shape=[5]), r"'w' lies at bytes \[0, 16\) of 16; expected 5 elements"),
    (lambda h: h["w"].update(shape=[-4]), r"'w' has shape \[-4\]"),
    (lambda h: h["w"].update(dtype="F128"), r"'w' has the dtype 'F128', which safetensors does not define"),
    (lambda h: h["w"].pop("dtype"), r"'w' has the header entry"),
])
def test_safetensors_refuses_a_header_that_lies_about_the_file(tmp_path, edit, error):
    path = write_safetensors(tmp_path / "w.safetensors", {"w": ("F32", [4], b"\0" * 16)}, header_edit=edit)
    with pytest.raises(ValueError, match=error):
        mf.load(path)


def test_safetensors_refuses_a_truncated_file(tmp_path):
    path = write_safetensors(tmp_path / "w.safetensors", {"w": ("F32", [4], b"\0" * 16)})
    data = path.read_bytes()
    path.write_bytes(data[:-4])
    with pytest.raises(ValueError, match=r"'w' lies at bytes \[0, 16\) of 12"):
        mf.load(path)
    path.write_bytes(data[:20])  # the header cut short: the file no longer reads as safetensors
    with pytest.raises(ValueError, match="is a file meshflow does not read"):
        mf.load(path)


def read_safetensors(path):
    """(header, data) of a safetensors file, checking the layout the library requires: the
    data starts 8-byte aligned and the tensors lie back to back up to the end of the file."""
    raw = path.read_bytes()
    (length,) = struct.unpack("<Q", raw[:8])
    assert (8 + length) % 8 == 0
    header = json.loads(raw[8:8 + length])
    data = raw[8 + length:]
    spans = sorted(e["data_offsets"] for k, e in header.items() if k != "__metadata__")
    assert spans[0][0] == 0 and spans[-1][1] == len(data)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    return header, data


def test_save_writes_safetensors_by_suffix_or_format(tmp_path):
    state = {"w": mf.arange(6.0).reshape(2, 3), "bf16": mf.tensor([1.5, -2.25], dtype=mf.bfloat16),
             "f16": mf.tensor([0.5, 3.0]).half(), "i64": mf.arange(3), "mask": mf.tensor([True, False]),
             "scalar": mf.tensor(2.5), "empty": mf.zeros(0, 2)}
    mf.save(state, tmp_path / "model.safetensors", metadata={"format": "pt"})
    header, data = read_safetensors(tmp_path / "model.safetensors")
    assert header["__metadata__"] == {"format": "pt"}
    assert header["w"]["dtype"] == "F32" and header["w"]["shape"] == [2, 3]
    assert header["bf16"]["dtype"] == "BF16" and header["f16"]["dtype"] == "F16" and header["mask"]["dtype"] == "BOOL"
    begin, end = header["bf16"]["data_offsets"]
    assert np.frombuffer(data[begin:end], "<u2").tolist() == [0x3FC0, 0xC010]  # bfloat16's bits of 1.5, -2.25
    loaded = mf.load(tmp_path / "model.safetensors")
    assert list(loaded) == list(state)
    for name, t in state.items():
        assert loaded[name].dtype == t.dtype and values(loaded[name]) == values(t), name
    # format= names the format whatever the suffix; the default for other paths stays a directory.
    mf.save(state, tmp_path / "weights.bin", format="safetensors")
    assert values(mf.load(tmp_path / "weights.bin")["w"]) == values(state["w"])
    mf.save(state, tmp_path / "checkpoint")
    assert os.path.isdir(tmp_path / "checkpoint")


def test_save_to_safetensors_refuses_what_the_format_cannot_hold(tmp_path):
    with pytest.raises(TypeError, match=r"a flat dict of str -> Tensor.*the key 'model' -> dict.*format='meshflow'"):
        mf.save({"model": {"w": mf.zeros(2)}}, tmp_path / "m.safetensors")
    with pytest.raises(TypeError, match=r"the key 'step' -> int"):
        mf.save({"w": mf.zeros(2), "step": 3}, tmp_path / "m.safetensors")
    with pytest.raises(ValueError, match=r"format='zip'; expected 'meshflow', 'safetensors' or None"):
        mf.save({"w": mf.zeros(2)}, tmp_path / "m", format="zip")
    with pytest.raises(ValueError, match="metadata= goes into a safetensors header"):
        mf.save({"w": mf.zeros(2)}, tmp_path / "m", metadata={"a": "b"})
    with pytest.raises(TypeError, match=r"metadata=\{'a': 1\}; expected a dict of str -> str"):
        mf.save({"w": mf.zeros(2)}, tmp_path / "m.safetensors", metadata={"a": 1})
    assert not os.listdir(tmp_path)


def test_save_to_safetensors_gathers_a_global_tensor(tmp_path):
    one = mf.placement("cpu", ranks=[0])
    value = mf.arange(8.0).reshape(4, 2)
    mf.save({"w": value.to_global(placement=one, sbp=mf.sbp.split(0))}, tmp_path / "g.safetensors")
    loaded = mf.load(tmp_path / "g.safetensors")["w"]
    assert loaded.is_local and values(loaded) == values(value)


def test_a_safetensors_file_loads_into_a_model_and_onto_a_device(tmp_path):
    source, target = nn.Linear(3, 2), nn.Linear(3, 2)
    mf.save(source.state_dict(), tmp_path / "linear.safetensors")
    target.load_state_dict(mf.load(tmp_path / "linear.safetensors", map_location="cpu"))
    assert values(target.weight) == values(source.weight) and values(target.bias) == values(source.bias)
    with pytest.raises(ValueError, match=r"is one file, whose tensors load local with their full values; "
                                         r"expected no placement="):
        mf.load(tmp_path / "linear.safetensors", placement=mf.placement("cpu", ranks=[0]))


# ---------------------------------------------------------------------------------------------
# torch.save files written by PyTorch

A = np.arange(12.0).reshape(3, 4).tolist()


def test_a_torch_zip_file_loads_nested_with_views_tied_storages_and_every_dtype():
    state = mf.load(os.path.join(DATA, "torch_zip.pt"))
    assert isinstance(state["model"], collections.OrderedDict) and list(state["model"]) == ["weight", "bias"]
    assert values(state["model"]["weight"]) == [[0.0, 0.25, 0.5], [0.75, 1.0, 1.25]]
    assert values(state["model"]["bias"]) == [-1.0, 1.0]
    assert state["epoch"] == 3 and state["name"] == "tiny"
    assert values(state["view"]) == [[4.0, 6.0], [8.0, 10.0]]  # offset 4, strides (4, 2) into a's storage
    assert values(state["row"]) == [8.0, 9.0, 10.0, 11.0]
    first, second = state["tied"]
    assert values(first) == values(second) == A and first is not second
    assert values(state["param"]) == [0.5, 0.5] and state["param"].requires_grad  # an nn.Parameter
    expected = {"bf16": ("bfloat16", [1.5, -2.25]), "f16": ("float16", [0.5, 3.0]), "f64": ("float64", [1.0, 2.5]),
                "i64": ("int64", [0, 1, 2, 3]), "i32": ("int32", [-7, 7]), "bool": ("bool", [True, False, True]),
                "scalar": ("float32", 3.5), "empty": ("float32", [])}
    for name, (dtype, value) in expected.items():
        assert state[name].dtype.name == dtype and values(state[name]) == value, name
    assert tuple(state["empty"].shape) == (0, 3)
    assert state["dtype"] == mf.float16 and state["size"] == (2, 3)


def test_a_legacy_torch_file_loads():
    state = mf.load(os.path.join(DATA, "torch_legacy.pt"), map_location="cpu")
    assert values(state["view"]) == [[4.0, 6.0], [8.0, 10.0]] and values(state["a"]) == A
    assert state["i64"].dtype == mf.int64 and values(state["i64"]) == [0, 1, 2, 3]


def test_a_torch_state_dict_loads_into_a_model():
    model = nn.Linear(3, 2)
    model.load_state_dict(mf.load(os.path.join(DATA, "torch_zip.pt"))["model"])
    assert values(model.weight) == [[0.0, 0.25, 0.5], [0.75, 1.0, 1.25]] and values(model.bias) == [-1.0, 1.0]


# ---------------------------------------------------------------------------------------------
# torch.save files written here: what PyTorch would not write

def pickle_int(value):
    return b"J" + struct.pack("<i", value)  # BININT


def pickle_str(text):
    data = text.encode()
    return b"X" + struct.pack("<I", len(data)) + data  # BINUNICODE


def pickle_tuple(ints):
    return b"(" + b"".join(pickle_int(i) for i in ints) + b"t"


def tensor_pickle(storage_type, key, numel, offset, size, stride):
    """Protocol 2 opcodes of torch._utils._rebuild_tensor_v2 over a persistent-id storage, as
    torch.save writes a tensor (with plain tuples for size and stride)."""
    storage = (b"(" + pickle_str("storage") + b"ctorch\n" + storage_type.encode() + b"\n" + pickle_str(key)
               + pickle_str("cpu") + pickle_int(numel) + b"tQ")  # TUPLE, BINPERSID
    return (b"ctorch._utils\n_rebuild_tensor_v2\n(" + storage + pickle_int(offset) + pickle_tuple(size)
            + pickle_tuple(stride) + b"\x89ccollections\nOrderedDict\n)RtR")  # False, OrderedDict(), REDUCE


def write_torch_zip(path, data_pkl, storages):
    """A torch.save zip archive: archive/data.pkl, archive/byteorder, archive/data/<key>."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("archive/data.pkl", data_pkl)
        archive.writestr("archive/byteorder", "little")
        for key, data in storages.items():
            archive.writestr(f"archive/data/{key}", data)
    return path


def one_tensor(path, storage_type="FloatStorage", numel=6, offset=1, size=(2, 2), stride=(3, 1), data=None):
    data_pkl = b"\x80\x02}(" + pickle_str("w") + tensor_pickle(storage_type, "0", numel, offset, size, stride) + b"u."
    return write_torch_zip(path, data_pkl, {"0": np.arange(6, dtype="<f4").tobytes() if data is None else data})


def test_a_hand_written_torch_zip_reads_a_view_at_an_offset(tmp_path):
    state = mf.load(one_tensor(tmp_path / "w.pt", offset=1, size=(2, 2), stride=(3, 1)))
    assert values(state["w"]) == [[1.0, 2.0], [4.0, 5.0]]
    state = mf.load(one_tensor(tmp_path / "t.pt", offset=0, size=(3, 2), stride=(1, 3)))  # a transpose
    assert values(state["w"]) == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]


@pytest.mark.parametrize("offset, size, stride", [(3, (2, 2), (3, 1)), (0, (7,), (1,)), (0, (2,), (-1,))])
def test_a_tensor_outside_its_storage_is_refused(tmp_path, offset, size, stride):
    with pytest.raises(ValueError, match=r"the tensor 'w'"):
        mf.load(one_tensor(tmp_path / "w.pt", offset=offset, size=size, stride=stride))


def test_a_storage_shorter_than_its_listed_size_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"the storage of 'w' holds 8 bytes; expected 6 elements of 4 bytes"):
        mf.load(one_tensor(tmp_path / "w.pt", data=b"\0" * 8))


def test_a_torch_complex_tensor_loads(tmp_path):
    data = np.array([1 + 2j, -3j], np.complex64).tobytes()
    path = one_tensor(tmp_path / "c.pt", storage_type="ComplexFloatStorage", numel=2, offset=0, size=(2,),
                      stride=(1,), data=data)
    w = mf.load(path)["w"]
    assert w.dtype == mf.complex64 and w.numpy().tolist() == [1 + 2j, -3j]


class RunsACommand:
    def __init__(self, command):
        self.command = command

    def __reduce__(self):
        return os.system, (self.command,)


def test_a_pickle_that_runs_code_is_refused_without_running_it(tmp_path):
    marker = tmp_path / "ran"
    payload = pickle.dumps({"w": RunsACommand(f"touch {marker}")}, protocol=2)
    with pytest.raises(ValueError, match=r"holds the global (posix|os)\.system, which a checkpoint of tensors does "
                                         r"not need.*weights_only=True"):
        mf.load(write_torch_zip(tmp_path / "evil.pt", payload, {}))
    assert not marker.exists()
    # Any other callable too, even a harmless one, and in the legacy format.
    with pytest.raises(ValueError, match=r"holds the global builtins\.print"):
        mf.load(write_torch_zip(tmp_path / "print.pt", b"\x80\x02cbuiltins\nprint\n)R.", {}))
    legacy = pickle.dumps(0x1950a86a20f9469cfc6c, protocol=2) + pickle.dumps({"w": RunsACommand(f"touch {marker}")},
                                                                              protocol=2)
    (tmp_path / "legacy.pt").write_bytes(legacy)
    with pytest.raises(ValueError, match=r"holds the global (posix|os)\.system"):
        mf.load(tmp_path / "legacy.pt")
    assert not marker.exists()


def test_a_pickle_that_sets_a_tensors_fields_is_refused(tmp_path):
    # BUILD could rewrite a tensor's offset after _rebuild_tensor_v2 checked nothing yet.
    tensor = tensor_pickle("FloatStorage", "0", 6, 0, (2,), (1,))
    data_pkl = (b"\x80\x02}(" + pickle_str("w") + tensor + b"N}" + pickle_str("offset") + pickle_int(100)
                + b"s\x86bu.")  # (None, {"offset": 100}) as the slot state, BUILD
    path = write_torch_zip(tmp_path / "w.pt", data_pkl, {"0": np.arange(6, dtype="<f4").tobytes()})
    with pytest.raises(ValueError, match=r"holds BUILD \(setting the state of a PendingTensor\)"):
        mf.load(path)


def test_a_file_object_saved_by_meshflow_loads_from_its_path_too(tmp_path):
    buffer = io.BytesIO()
    mf.save({"w": mf.arange(3.0), "step": 2}, buffer)
    (tmp_path / "state.pt").write_bytes(buffer.getvalue())
    state = mf.load(tmp_path / "state.pt")
    assert values(state["w"]) == [0.0, 1.0, 2.0] and state["step"] == 2


def test_an_unknown_file_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("not weights")
    with pytest.raises(ValueError, match="'.*notes.txt' is a file meshflow does not read; expected a safetensors"):
        mf.load(tmp_path / "notes.txt")


# ---------------------------------------------------------------------------------------------
# Tied weights in state_dict

class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(5, 3)
        self.lm_head = nn.Linear(3, 5, bias=False)
        self.lm_head.weight = self.wte.weight


def test_state_dict_lists_tied_weights_under_every_name_and_loads_from_either():
    source = Tied()
    state = source.state_dict()
    assert list(state) == ["wte.weight", "lm_head.weight"]  # as torch's
    assert [name for name, _ in source.named_parameters()] == ["wte.weight"]
    value = np.arange(15.0).reshape(5, 3)
    for given in (["wte.weight", "lm_head.weight"], ["wte.weight"], ["lm_head.weight"]):
        target = Tied()
        result = target.load_state_dict({name: mf.tensor(value) for name in given})
        assert result.missing_keys == [] and result.unexpected_keys == [], given
        assert target.lm_head.weight is target.wte.weight and target.wte.weight.numpy().tolist() == value.tolist()


def test_tied_weights_round_trip_through_safetensors(tmp_path):
    source, target = Tied(), Tied()
    mf.save(source.state_dict(), tmp_path / "tied.safetensors")
    assert list(mf.load(tmp_path / "tied.safetensors")) == ["wte.weight", "lm_head.weight"]
    target.load_state_dict(mf.load(tmp_path / "tied.safetensors"))
    assert values(target.lm_head.weight) == values(source.wte.weight)
