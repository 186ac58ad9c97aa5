"""The package as a user meets it: importable submodules, type stubs that match the module,
docstrings on everything public."""

import ast
import inspect
import pathlib

import endgame
import endgame.cheesy
import endgame.marine
import endgame.twixt

PACKAGE = pathlib.Path(endgame.__file__).parent


def stub_names(path):
    """Top-level names, and each class's members, declared in a stub."""
    tree = ast.parse(path.read_text())
    names, members = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            members[node.name] = {
                n.name if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) else n.target.id
                for n in node.body
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.AnnAssign))
            }
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return names, members


def public(obj):
    return {n for n in dir(obj) if not n.startswith("_")}


def test_the_stubs_declare_what_the_module_has():
    assert (PACKAGE / "py.typed").is_file()
    names, members = stub_names(PACKAGE / "_endgame.pyi")
    compiled = endgame._endgame
    assert public(compiled) - {"Category"} <= names | {"twixt", "cheesy", "marine"}
    for cls in ("Tablebases", "ProbeResult", "Move"):
        assert public(getattr(endgame, cls)) == members[cls] - {"__init__"}, cls
    for module in ("twixt", "cheesy", "marine"):
        declared, _ = stub_names(PACKAGE / f"{module}.pyi")
        assert public(getattr(compiled, module)) == declared, module
        assert set(getattr(endgame, module).__all__) == declared, module


def test_the_stub_signatures_are_the_modules():
    tree = ast.parse((PACKAGE / "_endgame.pyi").read_text())
    stub = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Tablebases":
            for f in node.body:
                if isinstance(f, ast.FunctionDef) and not f.decorator_list:
                    stub[f.name] = [a.arg for a in f.args.args][1:]
    for name, args in stub.items():
        if name == "__init__":
            real = inspect.signature(endgame.Tablebases)
        else:
            real = inspect.signature(getattr(endgame.Tablebases, name))
            args = ["self", *args] if "self" in real.parameters else args
        assert list(real.parameters) == args, name


def test_everything_public_has_a_docstring():
    for obj in [endgame, endgame.twixt, endgame.cheesy, endgame.marine]:
        assert obj.__doc__, obj
    for cls in (endgame.Tablebases, endgame.ProbeResult, endgame.Move, endgame.MissingTable):
        assert cls.__doc__, cls
    for name in ("probe", "probe_wdl", "moves", "main_line", "stats", "generate"):
        assert getattr(endgame.Tablebases, name).__doc__, name
    for f in (endgame.twixt.replay, endgame.twixt.threats, endgame.cheesy.solve, endgame.marine.solve):
        assert f.__doc__, f


def test_errors_are_the_documented_classes():
    assert issubclass(endgame.MissingTable, LookupError)
    assert issubclass(endgame.TableError, OSError)
    assert issubclass(endgame.SearchLimit, RuntimeError)
    assert endgame.MissingTable.__module__ == "endgame"
    assert {"hdu", "standard", "perpetual-check"} <= set(endgame.RULES)
    assert endgame.DEFAULT_CACHE_MIB == 64
