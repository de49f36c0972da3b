"""Whole programs as PyTorch users write them (issue 37, thirteenth programs round, written
blind). Each program in port_programs13/ is torch's spelling, run unchanged but for its
imports, and must agree with what PyTorch 2 printed for it (expected.json), as
test_port_programs9's. The focused tests below pin each class of defect the round found."""
import json
import os

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
from test_port_programs9 import check_program, restore_settings  # noqa: F401  (a fixture)

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs13")
EXPECTED = json.load(open(os.path.join(HERE, "expected.json")))
PROGRAMS = sorted(os.path.basename(p)[:-3] for p in os.listdir(HERE) if p.startswith("r") and p.endswith(".py"))


def test_every_program_has_torch_s_values():
    assert PROGRAMS and sorted(EXPECTED) == PROGRAMS


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_agrees_with_torch(name, restore_settings, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    check_program(HERE, EXPECTED, name, monkeypatch)
