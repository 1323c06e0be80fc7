"""``node:calculator``: the in-browser dice calculator, running the book's own engine in Pyodide.

The page carries a form and the calculator's settings (the systems it offers, a starting question)
as JSON; ``static/calculator.js`` starts a Web Worker (``static/calculator-worker.js``) only when the
reader uses the calculator or opens a share link.  The worker loads Pyodide (``rpg_pyodide_url``, or
the copy ``rpg_pyodide_vendor`` puts into the site), installs the engine wheel the build writes
(:mod:`sphinx_rpg.wheel`) and answers each question with ``rules.calculator.answer_json``: the
function behind ``rpg odds``, given the reader's text as data.  Other builders print a pointer to the
web edition and to ``rpg odds`` instead.
"""

from __future__ import annotations

import json
import shutil
from html import escape
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import OptionSpec

from rules.systems import SystemLoadError, installed_systems, registry_path
from sphinx_rpg import vendor
from sphinx_rpg.binding import binding_for, configured_paths
from sphinx_rpg.editions import is_player
from sphinx_rpg.pagescan import holds
from sphinx_rpg.vendor import PRECOMPILED_STDLIB, PYODIDE_FILES, PYODIDE_VERSION, VendorError, await_stdlib, vendored
from sphinx_rpg.version import __version__
from sphinx_rpg.warnings import warn
from sphinx_rpg.wheel import DISTRIBUTION, WheelError, build_wheel, wheel_name

logger = logging.getLogger(__name__)

#: Where the build puts the calculator's files, under the site's ``_static/``.
FOLDER = "rpg"
MANIFEST = "calculator.json"
#: The defaults a page may set, and the longest text each may hold.
MAX_NOTATION = 200


class node_calculator(nodes.General, nodes.Element):
    """Placeholder: the calculator's settings as JSON text (picklable), laid out per builder."""


def _system_spec(path: str) -> str:
    """What the browser passes to ``rules.systems.load_registry``: the system's name when it is an
    installed one (the engine wheel carries the same entry points), else the import path."""
    names = {value: name for name, value in installed_systems().items()}
    try:
        return names.get(registry_path(path), path)
    except SystemLoadError:
        return path


def _whole(value: str) -> int:
    number = int(value.strip())
    if abs(number) > 10**9:
        raise ValueError(f"{value!r} is out of range")
    return number


class NodeCalculator(SphinxDirective):
    """``.. node:calculator::`` with ``:systems:``, ``:notation:``, ``:dc:`` or ``:under:``.

    ``:systems:`` names bound registries (by system name or configured import path), the first one
    selected; plain dice notation is always offered too.
    """

    has_content = False
    option_spec: ClassVar[OptionSpec] = {
        "systems": directives.unchanged,
        "notation": directives.unchanged,
        "dc": directives.unchanged,
        "under": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        location = self.get_location()
        binding = binding_for(self.config)
        paths = {id(registry): path for path in configured_paths(self.config)
                 if isinstance(path, str) and (registry := binding.registry(path)) is not None}
        systems = []
        for name in self.options.get("systems", "").replace(",", " ").split():
            registry = binding.registry(name)
            if registry is None:
                known = ", ".join(r.system for r in binding.registries) or "none configured"
                warn("option", f"node:calculator: no bound registry has system {name!r} (known: {known})", location)
                continue
            if registry.notation is None:
                warn("option", f"node:calculator: system {name!r} registers no notation of its own; plain dice "
                               "notation is always offered", location)
                continue
            spec = _system_spec(paths.get(id(registry), name))
            systems.append({"spec": spec, "label": registry.title, "example": registry.notation.example})
        from sphinx_rpg.directives.tables import rolls_under, target_name

        first = self.options.get("systems", "").replace(",", " ").split()
        game = first[0] if first else ""
        settings: dict[str, Any] = {"systems": systems, "notation": "", "target": None,
                                    "mode": "under" if rolls_under(self.config, self.env.docname, game) else "dc",
                                    "target_name": target_name(self.config, self.env.docname, game)}
        notation = self.options.get("notation", "").strip()
        if len(notation) > MAX_NOTATION:
            warn("option", f"node:calculator: :notation: is longer than {MAX_NOTATION} characters", location)
            notation = ""
        settings["notation"] = notation or (systems[0]["example"] if systems else "3d6")
        if "dc" in self.options and "under" in self.options:
            warn("option", "node:calculator: give either :dc: or :under:, not both (:dc: is used)", location)
        for mode in ("under", "dc"):
            if mode in self.options:
                try:
                    settings["mode"], settings["target"] = mode, _whole(self.options[mode])
                except ValueError:
                    warn("option", f"node:calculator: :{mode}: must be a whole number, not "
                                   f"{self.options[mode]!r}", location)
        placeholder = node_calculator(settings=json.dumps(settings, sort_keys=True))
        self.set_source_info(placeholder)
        calculator_pages(self.env).add(self.env.docname)
        return [placeholder]


def _json_script(data: str) -> str:
    """The settings as a JSON script element; ``<`` escaped so no text can close the element early."""
    return ('<script type="application/json" class="rpg-calculator-data">'
            + data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026") + "</script>")


def calculator_html(settings_json: str, number: int, *, player: bool = False) -> str:
    """The form, hidden until the script shows it; a ``<noscript>`` says what the calculator needs.
    A ``player`` edition names no command-line tool (a player's book has no terminal in it)."""
    settings = json.loads(settings_json)
    terminal = "" if player else " The <code>rpg odds</code> command gives the same exact odds from a terminal."
    ident = f"rpg-calculator-{number}"
    options = ['<option value="">Standard dice notation</option>']
    options += [f'<option value="{escape(s["spec"], quote=True)}">{escape(s["label"])}</option>'
                for s in settings["systems"]]
    first = settings["systems"][0]["spec"] if settings["systems"] else ""
    target = "" if settings["target"] is None else str(settings["target"])
    name = settings.get("target_name", "DC")  # what the game calls the number to reach
    example = escape(settings["notation"], quote=True)
    return (
        f'<div class="rpg-calculator" id="{ident}">' + _json_script(settings_json)
        + '<noscript><p class="rpg-calculator-noscript"><strong>This dice calculator needs JavaScript and '
        'WebAssembly.</strong> It runs the book\'s own rules engine (Python, loaded with Pyodide) inside your '
        f'browser; with JavaScript turned off it cannot start.{terminal}</p></noscript>'
        f'<form class="rpg-calculator-form" hidden autocomplete="off">'
        f'<label class="rpg-calculator-field rpg-calculator-notation">Dice'
        f'<input type="text" name="notation" value="{example}" spellcheck="false" maxlength="500" '
        f'aria-describedby="{ident}-status"></label>'
        f'<label class="rpg-calculator-field">Notation<select name="system" data-default="{escape(first, True)}">'
        + "".join(options) + '</select></label>'
        '<label class="rpg-calculator-field">Succeeds on<select name="mode">'
        f'<option value="dc"{" selected" if settings["mode"] == "dc" else ""}>at least ({escape(name)})</option>'
        f'<option value="under"{" selected" if settings["mode"] == "under" else ""}>at most (roll under)</option>'
        '</select></label>'
        f'<label class="rpg-calculator-field rpg-calculator-target">Target<input type="number" name="target" '
        f'step="1" inputmode="numeric" value="{target}"></label>'
        '<div class="rpg-calculator-buttons"><button type="submit">Compute</button>'
        '<button type="button" data-action="roll">Roll</button>'
        '<button type="button" data-action="cancel" hidden>Cancel</button>'
        '<a class="rpg-calculator-share" href="#" hidden>Share link</a></div></form>'
        '<p class="rpg-calculator-print rpg-print-only">The dice calculator runs in the web edition of this '
        f'book.{terminal}</p>'
        f'<p class="rpg-calculator-status" id="{ident}-status" role="status"></p>'
        '<p class="rpg-calculator-rolled" aria-live="polite"></p>'
        '<div class="rpg-calculator-result"></div></div>')


class CalculatorHtml(SphinxPostTransform):
    """HTML: the live calculator."""

    default_priority = 5
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        if not holds(self.document, node_calculator):
            return
        for number, placeholder in enumerate(list(self.document.findall(node_calculator))):
            html = calculator_html(placeholder["settings"], number, player=is_player(self.config))
            placeholder.replace_self(nodes.raw("", html, format="html"))


class CalculatorElsewhere(SphinxPostTransform):
    """Print and every other format: where to find the calculator, and the command that answers the same."""

    default_priority = 6

    def run(self, **kwargs: Any) -> None:
        if not holds(self.document, node_calculator):
            return
        for placeholder in list(self.document.findall(node_calculator)):
            paragraph = nodes.paragraph(classes=["rpg-calculator-elsewhere"])
            paragraph += nodes.Text("The dice calculator runs in the web edition of this book.")
            if not is_player(self.config):  # a player's book names no command-line tool
                paragraph += nodes.Text(" The command ")
                paragraph += nodes.literal("rpg odds", "rpg odds")
                paragraph += nodes.Text(" gives the same exact odds from a terminal.")
            placeholder.replace_self(paragraph)


# -- environment: which pages hold a calculator (parallel and incremental safe) -----------------------
def calculator_pages(env: Any) -> set[str]:
    """The pages with a calculator, kept in the node domain's data (pickled with the environment)."""
    from sphinx_rpg.domain import node_domain

    pages: set[str] = node_domain(env).data.setdefault("calculator_pages", set())
    return pages


def purge_doc(app: Sphinx, env: Any, docname: str) -> None:
    calculator_pages(env).discard(docname)


def merge_info(app: Sphinx, env: Any, docnames: Any, other: Any) -> None:
    # a worker's environment comes without domain objects: its data is read as Sphinx pickled it
    theirs = other.domaindata.get("node", {}).get("calculator_pages", ())
    calculator_pages(env).update(set(theirs) & set(docnames))


def add_calculator_script(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                          doctree: nodes.document | None) -> None:
    """Only pages with a calculator load calculator.js (which loads nothing more until it is used)."""
    if doctree is not None and pagename in calculator_pages(app.env):
        app.add_css_file("calculator.css")
        app.add_js_file("address.js", loading_method="defer")
        app.add_js_file("calculator.js", defer="defer")


# -- the files the calculator loads -------------------------------------------------------------------
def engine_packages(config: Any) -> list[str]:
    """``rpg_calculator_packages``, or ``rules`` plus the top-level package of every configured registry."""
    chosen = config.rpg_calculator_packages
    if chosen is not None:
        return [str(name) for name in chosen]
    packages = ["rules"]
    for path in configured_paths(config):
        try:
            packages.append(registry_path(path).partition(":")[0].partition(".")[0])  # type: ignore[arg-type]
        except SystemLoadError:  # reported by the binding, as node.registry
            continue
    return list(dict.fromkeys(packages))


def engine_systems(packages: list[str]) -> dict[str, str]:
    """The installed game systems whose registries the wheel holds: its ``sphinx_rpg.systems`` entry points."""
    return {name: path for name, path in installed_systems().items()
            if path.partition(":")[0].partition(".")[0] in packages}


def _pyodide_source(app: Sphinx) -> Path | None:
    """The vendored Pyodide folder ``rpg_pyodide_vendor`` names (relative to conf.py), if set."""
    value = app.config.rpg_pyodide_vendor
    if not value:
        return None
    return (Path(app.confdir) / str(value)).resolve()


def _copy_tree(source: Path, target: Path) -> None:
    """Copy the files whose size or age differs (Pyodide is ~13 MB: a rebuild copies nothing)."""
    target.mkdir(parents=True, exist_ok=True)
    for path in source.iterdir():
        if path.is_file() and not path.name.startswith("."):
            destination = target / path.name
            stat = path.stat()
            if (not destination.exists() or destination.stat().st_size != stat.st_size
                    or destination.stat().st_mtime < stat.st_mtime):
                shutil.copy2(path, destination)


def _runtime_bytes(folder: Path, stdlib: str | None = None) -> int:
    """The bytes of the Pyodide files a start fetches (all the vendored ones but ``package.json``; the
    precompiled ``stdlib`` in place of ``python_stdlib.zip`` when there is one)."""
    names = [name for name in PYODIDE_FILES if name != "package.json"]
    if stdlib:
        names = [stdlib if name == "python_stdlib.zip" else name for name in names]
    return sum((folder / name).stat().st_size for name in names if (folder / name).is_file())


def _engine_bytecode(vendored_folder: Path, folder: Path, wheel: str) -> str | None:
    """The engine's bytecode for ``wheel``, compiled once by the vendored Pyodide (Node.js) and copied
    beside the wheel: its file name, or ``None`` (no Node.js, or it failed: said, and the calculator
    compiles the engine at start, as before)."""
    try:
        made = vendor.engine_bytecode(vendored_folder, folder / wheel)
        if made is None:
            return None
        target = folder / made.name
        if not target.is_file() or target.stat().st_size != made.stat().st_size:
            for old in folder.glob("*.pyc.zip"):
                old.unlink()
            shutil.copy2(made, target)
    except (VendorError, OSError) as error:
        logger.info(f"the dice calculator compiles its engine at each start: {error}")
        return None
    return made.name


def write_calculator_files(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: the engine wheel, the vendored Pyodide and the manifest the script reads."""
    if exception is not None or app.builder.format != "html" or not calculator_pages(app.env):
        return
    folder = Path(app.outdir) / "_static" / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    packages = engine_packages(app.config)
    version = str(app.config.release or app.config.version or __version__)
    try:
        systems = engine_systems(packages)
        name = wheel_name(packages, version, systems)
        if not (folder / name).is_file():
            for old in folder.glob(f"{DISTRIBUTION}-*.whl"):
                old.unlink()
            name, data = build_wheel(packages, version, systems)
            (folder / name).write_bytes(data)
    except (WheelError, OSError) as error:
        warn("calculator", f"the dice calculator's engine wheel cannot be built: {error}", None)
        return
    pyodide = app.config.rpg_pyodide_url
    source = _pyodide_source(app)
    if source is not None:
        if vendored(source):
            await_stdlib(source)  # its precompiled standard library may still be in the making
            _copy_tree(source, folder / "pyodide")
            pyodide = "pyodide/"
        else:
            warn("calculator", f"rpg_pyodide_vendor = {app.config.rpg_pyodide_vendor!r}: {source} holds no "
                               f"vendored Pyodide {PYODIDE_VERSION} (run `rpg pyodide` to make it); the "
                               f"calculator loads Pyodide from {pyodide}", None)
    # the standard library with its bytecode, when vendoring made it (sphinx_rpg.vendor.precompile_stdlib)
    precompiled = pyodide == "pyodide/" and (folder / "pyodide" / PRECOMPILED_STDLIB).is_file()
    stdlib = PRECOMPILED_STDLIB if precompiled else None
    bytecode = _engine_bytecode(source, folder, name) if precompiled and source is not None else None
    # what the start fetches, in bytes, so the page can say how much has arrived ("python": 0 when
    # Pyodide comes from elsewhere and its size is not known here)
    sizes = {"python": _runtime_bytes(folder / "pyodide", stdlib) if pyodide == "pyodide/" else 0,
             "engine": sum((folder / part).stat().st_size for part in (name, bytecode) if part)}
    manifest = json.dumps({"wheel": name, "pyodide": pyodide, "packages": packages, "sizes": sizes,
                           **({"stdlib": stdlib} if stdlib else {}), **({"bytecode": bytecode} if bytecode else {})},
                          sort_keys=True)
    path = folder / MANIFEST
    if not path.is_file() or path.read_text(encoding="utf-8") != manifest:
        path.write_text(manifest, encoding="utf-8")


def setup(app: Sphinx) -> None:
    """``node:calculator``: the engine in the reader's browser, and the files it runs from."""
    app.add_directive_to_domain("node", "calculator", NodeCalculator)
    app.add_node(node_calculator)
    app.add_post_transform(CalculatorHtml)
    app.add_post_transform(CalculatorElsewhere)
    app.connect("env-purge-doc", purge_doc)
    app.connect("env-merge-info", merge_info)
    app.connect("html-page-context", add_calculator_script)
    app.connect("build-finished", write_calculator_files)
