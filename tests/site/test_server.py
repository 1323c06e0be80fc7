"""The test site's server: a browser that leaves a page early is no failure of the site."""

from __future__ import annotations

import pytest

from tests.site.conftest import _SiteHandler, _SiteHTTPServer


@pytest.fixture
def server():
    httpd = _SiteHTTPServer(("127.0.0.1", 0), _SiteHandler)
    yield httpd
    httpd.server_close()


def test_a_browser_that_leaves_before_the_answer_prints_no_traceback(server, capsys):
    try:
        raise BrokenPipeError("the browser closed the connection")
    except BrokenPipeError:
        server.handle_error(None, ("127.0.0.1", 1))
    assert capsys.readouterr().err == ""


def test_any_other_error_while_answering_is_still_printed(server, capsys):
    try:
        raise ValueError("a handler bug")
    except ValueError:
        server.handle_error(None, ("127.0.0.1", 1))
    assert "ValueError: a handler bug" in capsys.readouterr().err
