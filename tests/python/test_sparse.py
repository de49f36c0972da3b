"""Sparse COO tensors as a port meets them (issue 37): each expected value is what torch 2.x
stores or computes for the same lines (printed by torch, kept here)."""
import numpy as np
import pytest

import meshflow as torch


def _s(requires_grad=False):
    v = torch.tensor([3.0, 4.0, 5.0, 1.0], requires_grad=requires_grad)
    return torch.sparse_coo_tensor(torch.tensor([[0, 1, 1, 0], [2, 0, 2, 2]]), v, (2, 3)), v


def test_stored_values_coalesce_and_to_dense():
    s, _ = _s()
    assert s.is_sparse and s.layout == torch.sparse_coo and s._nnz() == 4 and not s.is_coalesced()
    assert s.shape == (2, 3) and s.sparse_dim() == 2 and s.dense_dim() == 0
    with pytest.raises(RuntimeError, match="uncoalesced"):
        s.indices()
    c = s.coalesce()
    assert c.is_coalesced() and c._nnz() == 3
    assert c.indices().tolist() == [[0, 1, 1], [2, 0, 2]] and c.values().tolist() == [4.0, 4.0, 5.0]
    assert s.to_dense().tolist() == [[0, 0, 4], [4, 0, 5]]
    assert torch.sparse_coo_tensor(torch.tensor([[0, 2], [1, 3]]), torch.tensor([1.0, 2])).shape == (3, 4)


def test_hybrid_values():
    h = torch.sparse_coo_tensor(torch.tensor([[1, 0, 1]]), torch.tensor([[1.0, 2], [3, 4], [5, 6]]), (3, 2))
    assert h.to_dense().tolist() == [[3, 4], [6, 8], [0, 0]]
    assert h.coalesce().indices().tolist() == [[0, 1]] and h.coalesce().values().tolist() == [[3, 4], [6, 8]]
    assert torch.sparse.sum(h, 1).to_dense().tolist() == [7, 14, 0]


def test_to_sparse():
    xs = torch.tensor([[0.0, 1, 0], [2, 0, 3]]).to_sparse()
    assert xs.is_coalesced() and xs.indices().tolist() == [[0, 1, 1], [1, 0, 2]] and xs.values().tolist() == [1, 2, 3]


def test_mm_sum_and_arithmetic():
    s, _ = _s()
    d = torch.arange(6.0).reshape(3, 2)
    for out in (torch.sparse.mm(s, d), torch.mm(s, d), torch.matmul(s, d), s @ d):
        assert out.tolist() == [[16, 20], [20, 29]]
    assert torch.sparse.mm(s, torch.tensor([[1.0], [2], [3]])).tolist() == [[12], [19]]
    assert torch.mm(torch.tensor([[1.0, 2]]), s).tolist() == [[8, 0, 14]]
    assert torch.sparse.sum(s).item() == 13
    by0 = torch.sparse.sum(s, 0).coalesce()
    assert by0.indices().tolist() == [[0, 2]] and by0.values().tolist() == [4, 9]
    assert torch.sparse.sum(s, 1).coalesce().values().tolist() == [4, 9]
    assert (s + s).coalesce().values().tolist() == [8, 8, 10]
    doubled = s * 2
    assert not doubled.is_coalesced() and doubled._values().tolist() == [6, 8, 10, 2]
    assert (2 * s).to_dense().tolist() == [[0, 0, 8], [8, 0, 10]]


def test_gradients_reach_the_values():
    s, v = _s(requires_grad=True)
    torch.sparse.mm(s, torch.arange(6.0).reshape(3, 2)).sum().backward()
    assert v.grad.tolist() == [9, 1, 9, 9]
    s, v = _s(requires_grad=True)
    (s.to_dense() * torch.tensor([[1.0, 2, 3], [4, 5, 6]])).sum().backward()
    assert v.grad.tolist() == [3, 4, 6, 3]
    w = torch.ones(3, 2, requires_grad=True)
    torch.sparse.mm(_s()[0], w).sum().backward()
    assert w.grad.tolist() == [[4, 4], [0, 0], [9, 9]]


def test_refusals_are_clear():
    with pytest.raises(RuntimeError, match="out of bounds"):
        torch.sparse_coo_tensor(torch.tensor([[0, 3]]), torch.tensor([1.0, 2]), (3,))
    with pytest.raises(NotImplementedError, match="local CPU"):
        torch.sparse_coo_tensor(torch.tensor([[0]]), torch.tensor([1.0]), (2,), device="cuda")
    with pytest.raises(NotImplementedError, match="local CPU"):
        torch.ones(2, 2, device="meta").to_sparse()
