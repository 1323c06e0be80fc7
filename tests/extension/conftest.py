from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Small doc projects under tests/extension/roots/test-*/ (copied to a temp dir per test)."""
    return Path(__file__).parent / "roots"
