"""node:calculator: the page's form and settings, the engine wheel the build writes, and vendoring Pyodide.

What the calculator answers in the browser is checked in tests/site/test_calculator.py; here, with no
browser: the wheel is a real wheel that runs the engine on its own (also a designer's own game), the
same sources give the same bytes, the vendored Pyodide is refused unless its digest matches the
registry's, and the directive warns about what it cannot offer.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from sphinx_rpg import vendor
from sphinx_rpg.calculator import engine_packages, engine_systems
from sphinx_rpg.wheel import WheelError, build_wheel

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: A designer's own game, with a notation of its own: "N coins" counts heads among N coins.
GAME = '''
from rules.dice import Dist
from rules.nodes import Registry
from rules.systems import SystemNotation


def coins(text: str) -> Dist:
    count = int(text.split()[0])
    return Dist.from_weights({heads: __import__("math").comb(count, heads) for heads in range(count + 1)})


REGISTRY = Registry("coinflip", title="Coin Flip")
REGISTRY.define("Coin.Rule.Flip", "Flip", "R")
REGISTRY.notation = SystemNotation(parse=coins, example="3 coins")
'''


def _run_from_wheel(wheel: Path, code: str) -> str:
    """Run ``code`` in a fresh Python whose only import path for our packages is the wheel itself."""
    result = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(wheel)!r}); {code}"],
                            capture_output=True, text=True, timeout=60, cwd=wheel.parent)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


# -- the wheel -------------------------------------------------------------------------------------------
def test_the_engine_wheel_is_a_wheel_whose_record_hashes_every_file(tmp_path):
    name, data = build_wheel(["rules"], "0.2.dev0")
    assert name.startswith("rpg_engine-0.2.dev0+") and name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = archive.namelist()
        dist_info = name.removesuffix("-py3-none-any.whl") + ".dist-info"
        assert {f"{dist_info}/METADATA", f"{dist_info}/WHEEL", f"{dist_info}/RECORD"} <= set(names)
        assert "rules/calculator.py" in names and "rules/nemron/checks.py" in names
        assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
        record = archive.read(f"{dist_info}/RECORD").decode().splitlines()
        for line in record:
            path, digest, size = line.rsplit(",", 2)
            if path.endswith("/RECORD"):
                continue
            content = archive.read(path)
            expected = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=").decode()
            assert digest == f"sha256={expected}" and int(size) == len(content), path
        assert len(record) == len(names)


def test_the_same_sources_give_the_same_wheel_bytes():
    assert build_wheel(["rules"], "0.2") == build_wheel(["rules"], "0.2")


def test_the_wheel_carries_the_game_systems_it_holds_as_entry_points_for_the_browser():
    name, data = build_wheel(["rules"], "1.0", engine_systems(["rules"]))
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        text = archive.read(f"{name.rsplit('-py3', 1)[0]}.dist-info/entry_points.txt").decode()
    assert text.splitlines()[0] == "[sphinx_rpg.systems]" and "heimr = rules.heimr:REGISTRY" in text.splitlines()
    assert build_wheel(["rules"], "1.0")[0] != name  # other systems, another file name: never a stale cache


def test_the_engine_runs_from_the_wheel_alone(tmp_path):
    name, data = build_wheel(["rules"], "1.0", engine_systems(["rules"]))  # as the build makes it
    wheel = tmp_path / name
    wheel.write_bytes(data)
    out = _run_from_wheel(wheel, "import rules.calculator as c; print(c.__file__); "
                                 "print(c.answer_json('C+2 P+1', 'heimr', '7', None, ['heimr']))")
    where, answer = out.splitlines()
    assert where.startswith(str(wheel))
    from rules.calculator import answer_json
    assert json.loads(answer) == json.loads(answer_json("C+2 P+1", "heimr", "7", None, ["heimr"]))


def test_a_designers_own_game_package_goes_into_the_wheel_and_answers_from_it(tmp_path, monkeypatch):
    package = tmp_path / "src" / "coinflip"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(GAME)
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    config = SimpleNamespace(rpg_calculator_packages=None, rpg_registries=["coinflip:REGISTRY"])
    assert engine_packages(config) == ["rules", "coinflip"]
    name, data = build_wheel(engine_packages(config), "0.1")
    wheel = tmp_path / name
    wheel.write_bytes(data)
    answer = json.loads(_run_from_wheel(wheel, "from rules.calculator import answer_json; "
                                               "print(answer_json('2 coins', 'coinflip:REGISTRY', '1', None, "
                                               "['coinflip:REGISTRY']))"))
    assert [(row["outcome"], row["p"]) for row in answer["rows"]] == [(0, "1/4"), (1, "1/2"), (2, "1/4")]
    assert answer["target"]["p"] == "3/4"


def test_a_package_that_is_not_importable_is_refused_by_name():
    with pytest.raises(WheelError, match="no_such_game_package"):
        build_wheel(["no_such_game_package"], "1.0")
    with pytest.raises(WheelError, match="top-level"):
        build_wheel(["os.path"], "1.0")


def test_the_wheels_packages_can_be_named_in_conf_py():
    config = SimpleNamespace(rpg_calculator_packages=["rules", "extra"], rpg_registries=["coinflip:REGISTRY"])
    assert engine_packages(config) == ["rules", "extra"]


# -- vendoring Pyodide -----------------------------------------------------------------------------------
def _tarball(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, content in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(content)
            archive.addfile(info, io.BytesIO(content))
    return buffer.getvalue()


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


@pytest.fixture
def registry(monkeypatch):
    """A fake npm registry: the package's tarball and integrity; counts the downloads."""
    files = {name: f"contents of {name}".encode() for name in vendor.PYODIDE_FILES}
    files["console.html"] = b"not needed"
    state = SimpleNamespace(tarball=_tarball(files), integrity=None, downloads=0)
    state.integrity = _integrity(state.tarball)

    def metadata(version: str) -> tuple[str, str]:
        return f"https://registry.npmjs.org/pyodide/-/pyodide-{version}.tgz", state.integrity

    def fetch(url: str, limit: int) -> bytes:
        state.downloads += 1
        return state.tarball

    monkeypatch.setattr(vendor, "_metadata", metadata)
    monkeypatch.setattr(vendor, "_fetch", fetch)
    return state


def test_vendoring_unpacks_the_runtime_files_once_and_then_needs_no_network(tmp_path, registry):
    target = vendor.vendor_pyodide(tmp_path, "1.2.3")
    assert target == tmp_path / "1.2.3"
    assert sorted(p.name for p in target.iterdir() if not p.name.startswith(".")) == sorted(vendor.PYODIDE_FILES)
    assert (target / "pyodide.mjs").read_bytes() == b"contents of pyodide.mjs"
    assert vendor.vendor_pyodide(tmp_path, "1.2.3") == target
    assert registry.downloads == 1


def test_a_tarball_whose_sha512_differs_from_the_registrys_is_refused(tmp_path, registry):
    registry.integrity = _integrity(b"something else")
    with pytest.raises(vendor.VendorError, match="sha512"):
        vendor.vendor_pyodide(tmp_path, "1.2.3")
    assert not vendor.vendored(tmp_path / "1.2.3", "1.2.3")


def test_a_cached_tarball_that_was_tampered_with_is_downloaded_again(tmp_path, registry):
    vendor.vendor_pyodide(tmp_path, "1.2.3")
    (tmp_path / "pyodide-1.2.3.tgz").write_bytes(b"tampered")
    (tmp_path / "1.2.3" / vendor.STAMP).unlink()
    vendor.vendor_pyodide(tmp_path, "1.2.3")
    assert registry.downloads == 2


def test_an_integrity_that_is_not_sha512_is_refused():
    with pytest.raises(vendor.VendorError, match="not a sha512"):
        vendor.check_integrity(b"x", "sha1-abc")


def test_rpg_pyodide_downloads_once_and_says_where_the_copy_is(tmp_path, registry, capsys):
    from sphinx_rpg.cli import main

    assert main(["pyodide", str(tmp_path), "--version", "1.2.3", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["folder"] == str(tmp_path / "1.2.3") and first["downloaded"] is True
    assert main(["pyodide", str(tmp_path), "--version", "1.2.3"]) == 0
    assert capsys.readouterr().out.startswith(f"Pyodide 1.2.3 already vendored: {tmp_path / '1.2.3'}")
    assert registry.downloads == 1


def test_an_overwritten_runtime_file_is_no_longer_vendored(tmp_path, registry):
    target = vendor.vendor_pyodide(tmp_path, "1.2.3")
    assert vendor.vendored(target, "1.2.3")
    (target / "pyodide.asm.wasm").write_bytes(b"contents of pyodide.asm.wasX")  # same size, other bytes
    assert vendor.damaged(target, "1.2.3") == ["pyodide.asm.wasm"]
    assert not vendor.vendored(target, "1.2.3")


def test_rpg_pyodide_unpacks_an_overwritten_file_again_from_the_checked_tarball(tmp_path, registry, capsys):
    from sphinx_rpg.cli import main

    target = vendor.vendor_pyodide(tmp_path, "1.2.3")
    (target / "pyodide.asm.wasm").write_bytes(b"overwritten")
    assert main(["pyodide", str(tmp_path), "--version", "1.2.3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["repaired"] == ["pyodide.asm.wasm"] and report["downloaded"] is False
    assert (target / "pyodide.asm.wasm").read_bytes() == b"contents of pyodide.asm.wasm"
    assert registry.downloads == 1  # the cached tarball, checked again: no network
    assert main(["pyodide", str(tmp_path), "--version", "1.2.3"]) == 0
    assert "every file matches its recorded hash" in capsys.readouterr().out


def test_a_copy_vendored_before_hashes_were_recorded_is_unpacked_again(tmp_path, registry):
    target = vendor.vendor_pyodide(tmp_path, "1.2.3")
    (target / vendor.STAMP).write_text(json.dumps({"version": "1.2.3", "integrity": registry.integrity}))
    assert not vendor.vendored(target, "1.2.3")
    vendor.vendor_pyodide(tmp_path, "1.2.3")
    assert vendor.vendored(target, "1.2.3")


def test_rpg_pyodide_prints_the_setting_relative_to_the_books_conf_py(tmp_path, registry, capsys, monkeypatch):
    from sphinx_rpg.cli import main

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "conf.py").write_text("")
    monkeypatch.chdir(tmp_path)
    assert main(["pyodide", ".cache/pyodide", "--version", "1.2.3"]) == 0
    assert "in docs/conf.py: rpg_pyodide_vendor = '../.cache/pyodide/1.2.3'" in capsys.readouterr().out


def test_the_starters_conf_py_finds_the_vendored_pyodide_itself(tmp_path, registry, monkeypatch):
    import runpy

    from sphinx_rpg.new import create

    create(tmp_path / "g", "Gale")
    assert "rpg_pyodide_vendor" not in runpy.run_path(str(tmp_path / "g" / "docs" / "conf.py"))
    monkeypatch.setattr(vendor, "PYODIDE_VERSION", "1.2.3")
    vendor.vendor_pyodide(tmp_path / "g" / ".cache" / "pyodide", "1.2.3")
    setting = runpy.run_path(str(tmp_path / "g" / "docs" / "conf.py"))["rpg_pyodide_vendor"]
    assert vendor.vendored((tmp_path / "g" / "docs" / setting).resolve(), "1.2.3")


def test_rpg_pyodide_reports_a_failed_download_in_one_line(tmp_path, monkeypatch, capsys):
    from sphinx_rpg.cli import EXIT_ERROR, main

    def refuse(version: str) -> tuple[str, str]:
        raise vendor.VendorError("cannot download https://registry.npmjs.org/pyodide/9.9.9: offline")

    monkeypatch.setattr(vendor, "_metadata", refuse)
    assert main(["pyodide", str(tmp_path), "--version", "9.9.9"]) == EXIT_ERROR
    err = capsys.readouterr().err
    assert err.strip() == "rpg pyodide: cannot download https://registry.npmjs.org/pyodide/9.9.9: offline"


# -- the directive ---------------------------------------------------------------------------------------
@pytest.fixture
def book(tmp_path) -> Path:
    src = tmp_path / "book"
    src.mkdir()
    (src / "conf.py").write_text('extensions = ["sphinx_rpg"]\nrpg_registries = ["rules.nemron:REGISTRY", '
                                 '"rules.spurg:REGISTRY"]\nsuppress_warnings = ["node.undocumented"]\n')
    (src / "index.rst").write_text("Book\n====\n\n.. toctree::\n\n   calc\n   plain\n")
    (src / "calc.rst").write_text("Calc\n====\n\n.. node:calculator::\n   :systems: nemron\n   :dc: 7\n")
    (src / "plain.rst").write_text("Plain\n=====\n\nNo calculator here.\n")
    return src


def test_the_html_page_carries_the_form_its_settings_and_a_noscript_message(build, book):
    app = build(book)
    html = (app.outdir / "calc.html").read_text()
    assert "<noscript>" in html and "needs JavaScript" in html
    assert 'class="rpg-calculator-form" hidden' in html
    data = html.split('class="rpg-calculator-data">', 1)[1].split("</script>", 1)[0]
    settings = json.loads(data)
    assert settings["systems"] == [{"spec": "nemron", "label": "Nemron RPG", "example": "Agility 2 › Athletics 1"}]
    assert (settings["mode"], settings["target"], settings["notation"]) == ("dc", 7, "Agility 2 › Athletics 1")
    assert "calculator.js" in html and "calculator.js" not in (app.outdir / "plain.html").read_text()


def test_the_build_writes_the_wheel_and_the_manifest_the_page_reads(build, book):
    app = build(book)
    folder = Path(app.outdir) / "_static" / "rpg"
    manifest = json.loads((folder / "calculator.json").read_text())
    assert (folder / manifest["wheel"]).is_file()
    assert manifest["packages"] == ["rules"]
    assert manifest["pyodide"] == f"https://cdn.jsdelivr.net/pyodide/v{vendor.PYODIDE_VERSION}/full/"


def test_a_system_without_its_own_notation_or_unknown_is_reported(build, book, warning_text):
    (book / "calc.rst").write_text("Calc\n====\n\n.. node:calculator::\n   :systems: spurg, tolkien\n   :dc: x\n")
    text = warning_text(build(book))
    assert "system 'spurg' registers no notation of its own" in text
    assert "no bound registry has system 'tolkien'" in text
    assert ":dc: must be a whole number, not 'x'" in text
    assert text.count("[node.option]") == 3


def test_a_vendor_folder_without_pyodide_is_reported(build, book, warning_text, tmp_path):
    with open(book / "conf.py", "a") as conf:
        conf.write(f"rpg_pyodide_vendor = {str(tmp_path / 'nothing')!r}\n")
    text = warning_text(build(book))
    assert "holds no vendored Pyodide" in text and "[node.calculator]" in text


def test_a_vendored_pyodide_is_copied_into_the_site(build, book, tmp_path, registry):
    folder = vendor.vendor_pyodide(tmp_path / "cache")
    with open(book / "conf.py", "a") as conf:
        conf.write(f"rpg_pyodide_vendor = {str(folder)!r}\n")
    app = build(book)
    site = Path(app.outdir) / "_static" / "rpg"
    assert json.loads((site / "calculator.json").read_text())["pyodide"] == "pyodide/"
    assert sorted(p.name for p in (site / "pyodide").iterdir()) == sorted(vendor.PYODIDE_FILES)


def test_the_vendored_pyodide_is_copied_once_its_standard_librarys_bytecode_is_made(build, book, tmp_path, registry,
                                                                                  monkeypatch):
    """``python3 dev.py site`` compiles the standard library beside the builds, holding the lock; a build
    that reaches the calculator's files meanwhile waits for it, then copies the bytecode too."""
    import fcntl
    import threading

    from sphinx_rpg import files

    folder = vendor.vendor_pyodide(tmp_path / "cache")
    with open(book / "conf.py", "a") as conf:
        conf.write(f"rpg_pyodide_vendor = {str(folder)!r}\n")
    held, waiting = threading.Event(), threading.Event()
    real_held = files.held

    def noted(lock: Path):  # the build is about to wait on the lock
        waiting.set()
        return real_held(lock)

    monkeypatch.setattr(files, "held", noted)

    def precompile() -> None:  # what dev.py does beside the builds
        with (folder / vendor.STDLIB_LOCK).open("a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            held.set()
            if waiting.wait(60):
                (folder / vendor.PRECOMPILED_STDLIB).write_bytes(b"the standard library, compiled")
            (folder / vendor.STDLIB_LOCK).unlink()

    thread = threading.Thread(target=precompile)
    thread.start()
    assert held.wait(60)
    app = build(book)
    thread.join()
    site = Path(app.outdir) / "_static" / "rpg"
    assert (site / "pyodide" / vendor.PRECOMPILED_STDLIB).read_bytes() == b"the standard library, compiled"
    assert json.loads((site / "calculator.json").read_text())["stdlib"] == vendor.PRECOMPILED_STDLIB
    assert not (site / "pyodide" / vendor.STDLIB_LOCK).exists()


def test_print_says_where_the_calculator_is(build, book):
    app = build(book, "text")
    text = (Path(app.outdir) / "calc.txt").read_text()
    assert "The dice calculator runs in the web edition of this book" in text and "rpg odds" in text


def test_a_players_calculator_names_no_terminal_command(build, book):
    html = (Path(build(book, confoverrides={"rpg_edition": "player"}).outdir) / "calc.html").read_text()
    assert "The dice calculator runs in the web edition of this book." in html
    assert "rpg odds" not in html
    designer = (Path(build(book, freshenv=True).outdir) / "calc.html").read_text()
    assert "rpg odds" in designer


def test_no_starting_notation_can_close_the_settings_script_or_the_input(build, book):
    hostile = '"></script><script>alert(1)</script>'
    (book / "calc.rst").write_text(f"Calc\n====\n\n.. node:calculator::\n   :notation: {hostile}\n")
    html = (build(book).outdir / "calc.html").read_text()
    assert "<script>alert(1)" not in html
    settings = json.loads(html.split('class="rpg-calculator-data">', 1)[1].split("</script>", 1)[0])
    assert settings["notation"] == hostile


def test_the_test_commands_build_reuse_notices_a_newly_vendored_pyodide():
    dev = (Path(__file__).resolve().parents[2] / "dev.py").read_text()
    assert f'".cache/pyodide/{vendor.PYODIDE_VERSION}/{vendor.STAMP}"' in dev
