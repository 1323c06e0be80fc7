"""axe-core, the accessibility checker the browser tests run, vendored from the npm registry.

Like the calculator's Pyodide (``sphinx_rpg.vendor``): the first use downloads the pinned tarball
once, checks it against the pinned SHA-512 (the registry's ``dist.integrity``) and keeps
``axe.min.js`` in ``.cache/axe-core/<version>/``; every later run reads it from there, with no
network at all.  ``python3 -m tests.site.axe`` does the first download ahead of the tests.
"""

from __future__ import annotations

import io
import sys
import tarfile
from pathlib import Path

from sphinx_rpg.vendor import MAX_TARBALL, REGISTRY, VendorError, _fetch, _write, check_integrity

ROOT = Path(__file__).resolve().parents[2]
AXE_VERSION = "4.14.1"
#: The registry's dist.integrity for axe-core@AXE_VERSION, pinned here: a tarball that differs is refused.
AXE_INTEGRITY = "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
CACHE = ROOT / ".cache" / "axe-core"


def axe_script(cache: Path = CACHE) -> str:
    """The text of ``axe.min.js``, downloaded and checked on first use (``VendorError`` if it cannot be)."""
    target = cache / AXE_VERSION / "axe.min.js"
    if not target.is_file():
        data = _fetch(f"{REGISTRY}/axe-core/-/axe-core-{AXE_VERSION}.tgz", MAX_TARBALL)
        check_integrity(data, AXE_INTEGRITY)
        try:
            with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
                member = archive.extractfile("package/axe.min.js")
                if member is None:
                    raise VendorError("package/axe.min.js in the axe-core tarball is not a file")
                _write(target, member.read())
        except (tarfile.TarError, KeyError, OSError) as error:
            raise VendorError(f"cannot unpack the axe-core tarball: {error}") from None
    return target.read_text(encoding="utf-8")


if __name__ == "__main__":
    try:
        print(f"axe-core {AXE_VERSION}: {len(axe_script()):,} characters, checked")
    except VendorError as error:
        sys.exit(f"axe-core could not be vendored: {error}")
