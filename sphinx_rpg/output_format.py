"""Which output format a page is being written for, asked through Sphinx's public post-transform API.

Sphinx 9 gives a transform no public attribute naming the builder (its own ``is_supported`` reads a
private one); what it does document is a post-transform's ``formats`` filter and ``is_supported()``.
So the question is put to a probe transform that declares the format and is asked whether it runs:
Sphinx answers, and a future Sphinx that moves its private attribute answers the same.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform


class _HtmlProbe(SphinxPostTransform):
    formats = ("html",)


class _LatexProbe(SphinxPostTransform):
    formats = ("latex",)


def writes_html(document: nodes.document) -> bool:
    """Whether ``document`` is being written by an HTML builder (html, dirhtml, singlehtml...)."""
    return _HtmlProbe(document).is_supported()


def writes_latex(document: nodes.document) -> bool:
    """Whether ``document`` is being written by a LaTeX builder."""
    return _LatexProbe(document).is_supported()
