"""The type stubs (``_native.pyi``) against what the tools accept: each tool
method's parameters are the fields of the tool's argument struct, as the
schema ``tool_definitions("mcp")`` publishes them (required ones
positional, the others keyword-only), and ``ToolErrorKind`` lists exactly
the kinds docs/FORMAT.md §8.4 names. A field added to a tool and not to the
stubs (or the other way round) fails here."""

import ast
import pathlib
import re

import hashedit

PACKAGE = pathlib.Path(hashedit.__file__).parent
REPO = pathlib.Path(__file__).resolve().parents[3]

# method → (tool, {parameter: argument-struct field} where they differ)
METHODS = {
    "read": ("read_file", {}),
    "grep": ("grep", {}),
    "glob": ("glob", {}),
    "list_dir": ("list_dir", {}),
    "write": ("write", {}),
    "edit": ("edit", {"document": "input"}),
}
BINDING_ONLY = {"edit": {"dry_run"}}


def stub_class(name: str) -> ast.ClassDef:
    tree = ast.parse((PACKAGE / "_native.pyi").read_text())
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)


def test_each_method_takes_exactly_its_tools_arguments() -> None:
    schemas = {d["name"]: d["inputSchema"] for d in hashedit.tool_definitions("mcp")}
    methods = {
        n.name: n for n in stub_class("Workspace").body if isinstance(n, ast.FunctionDef)
    }
    for method, (tool, renamed) in METHODS.items():
        args = methods[method].args
        positional = [renamed.get(a.arg, a.arg) for a in args.args[1:]]
        keywords = {a.arg for a in args.kwonlyargs} - BINDING_ONLY.get(method, set())
        schema = schemas[tool]
        required = schema.get("required", [])
        assert positional == required, (method, positional, required)
        assert keywords == set(schema["properties"]) - set(required), method
        # Every option defaults to None: absent, so the tool's default holds.
        assert all(
            isinstance(d, ast.Constant) and d.value is None for d in args.kw_defaults
        ), method


def test_tool_error_kinds_are_the_documented_ones() -> None:
    format_md = (REPO / "docs" / "FORMAT.md").read_text()
    section = format_md.split("### §8.4 Error kinds", 1)[1].split("\n### ", 1)[0]
    documented = [
        kind
        for row in section.splitlines()
        if row.startswith("| `")
        for kind in re.findall(r"`([a-z0-9_]+)`", row.split("|")[1])
    ]
    tree = ast.parse((PACKAGE / "_native.pyi").read_text())
    alias = next(
        n for n in tree.body
        if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "ToolErrorKind"
    )
    literal = alias.value
    assert isinstance(literal, ast.Subscript)
    stubbed = [e.value for e in literal.slice.elts]  # type: ignore[attr-defined]
    assert len(documented) > 20
    assert sorted(stubbed) == sorted(documented)
