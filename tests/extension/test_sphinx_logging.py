"""The tests' logger set-up (tests/sphinx_logging.py) shows what Sphinx's own shows, at any verbosity."""

from __future__ import annotations

import logging
import shutil

import pytest
from sphinx.util import logging as sphinx_logging


@pytest.mark.parametrize("verbosity, shows_debug", [(0, False), (2, True)])
def test_an_app_shows_its_warnings_and_infos_and_its_debug_messages_only_when_verbose(make_app, rootdir, tmp_path,
                                                                                         verbosity, shows_debug):
    srcdir = tmp_path / "basic"
    shutil.copytree(rootdir / "test-basic", srcdir)
    app = make_app("html", srcdir=srcdir, verbosity=verbosity)
    logger = sphinx_logging.getLogger("tests.logging")
    logger.warning("a warning to show")
    logger.info("an info to show")
    logger.debug("a debug message")
    assert "a warning to show" in app.warning.getvalue()
    assert "an info to show" in app.status.getvalue()
    assert ("a debug message" in app.status.getvalue()) is shows_debug
    assert logging.getLogger(sphinx_logging.NAMESPACE).isEnabledFor(logging.DEBUG) is shows_debug
