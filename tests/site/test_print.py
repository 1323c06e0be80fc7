"""The whole site prints: the LaTeX builder runs over docs/ with warnings as errors.

Cards degrade to plain tables and charts to nothing but their table, so `make latexpdf` works wherever
TeX is installed (TeX itself is not needed for this test).
"""

import re
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_whole_site_builds_as_latex_without_warnings(tmp_path):
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "latex",
                             "-d", str(tmp_path / "doctrees"), str(DOCS), str(tmp_path / "latex")],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-4000:]
    tex = next((tmp_path / "latex").glob("*.tex")).read_text(encoding="utf-8")
    assert "sd-card" not in tex and "<svg" not in tex
    assert re.search(r"Energy \(E,R\)", tex)
