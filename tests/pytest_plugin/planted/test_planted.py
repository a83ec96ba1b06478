"""Tests whose "kernels" overrun (plant.py makes the finding the agent would make) and their
clean twins; tests/cli/pytest_plugin.sh runs them under cucheck through the plugin."""
import os

import pytest

from plant import plant, record_environment

if os.environ.get("FAKE_AT_COLLECTION") == "1":
    plant()  # a launch at import time: outside any test


def test_overrun():
    plant()


def test_overrun_clean():
    record_environment()


@pytest.fixture
def buffer_overrun_in_setup():
    plant()
    yield


def test_fixture_overrun(buffer_overrun_in_setup):
    pass


def test_warning_only():
    plant(severity="warning")


@pytest.mark.xfail(reason="the overrun is known", strict=False)
def test_known_overrun_xfail():
    plant()
    raise AssertionError("known")
