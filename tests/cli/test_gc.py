"""The grader process's collector settings: in effect only in a process ``main`` set up, undone on the way out."""

from __future__ import annotations

import gc

import pytest

from grader.cli import _gc


@pytest.fixture
def tuned(monkeypatch):
    thresholds = gc.get_threshold()
    monkeypatch.setattr(_gc, "_tuned", False)
    yield
    gc.set_threshold(*thresholds)
    gc.unfreeze()
    gc.enable()


def test_a_command_run_as_a_library_leaves_the_collector_alone(tuned):
    before = gc.get_threshold()
    with _gc.start_up_without_collections() as resume:
        assert gc.isenabled()
        resume()
        assert gc.get_freeze_count() == 0
    assert gc.isenabled() and gc.get_threshold() == before


def test_in_the_grader_process_start_up_runs_without_collections_then_freezes_and_resumes(tuned):
    _gc.tune_process()
    assert gc.get_threshold() == _gc.GC_THRESHOLDS
    with _gc.start_up_without_collections() as resume:
        assert not gc.isenabled()
        resume()
        assert gc.isenabled() and gc.get_freeze_count() > 0
        resume()  # a second call changes nothing
        assert gc.isenabled()
    assert gc.isenabled()


def test_collections_come_back_on_when_start_up_fails(tuned):
    _gc.tune_process()
    with pytest.raises(RuntimeError), _gc.start_up_without_collections():
        assert not gc.isenabled()
        raise RuntimeError("bad bundle")
    assert gc.isenabled() and gc.get_freeze_count() == 0
