"""Checks that every package of a release carries one version: the
workspace's (Cargo.toml), the bindings' (bindings/Cargo.toml, which the
wheel takes its version from), the npm package's (bindings/node/
package.json) and every internal dependency's; with `--tag vX.Y.Z`, that it
is the tag's.

    python3 scripts/packaging/versions.py [--tag vX.Y.Z]
    python3 scripts/packaging/versions.py --crates   # the publishable crates, one a line
"""

import argparse
import json
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def versions() -> dict[str, str]:
    """Where each version is written, and what it says."""
    root = tomllib.loads((REPO / "Cargo.toml").read_text())
    bindings = tomllib.loads((REPO / "bindings" / "Cargo.toml").read_text())
    found = {
        "Cargo.toml [workspace.package]": root["workspace"]["package"]["version"],
        "bindings/Cargo.toml [workspace.package]": bindings["workspace"]["package"]["version"],
        "bindings/node/package.json": json.loads(
            (REPO / "bindings" / "node" / "package.json").read_text()
        )["version"],
    }
    for name, spec in root["workspace"]["dependencies"].items():
        if isinstance(spec, dict) and "path" in spec and "version" in spec:
            found[f"Cargo.toml dependency {name}"] = spec["version"]
    return found


def publishable_crates() -> list[str]:
    """The workspace members crates.io gets (not `publish = false`)."""
    metadata = json.loads(subprocess.run(
        ["cargo", "metadata", "--no-deps", "--format-version", "1", "--locked"],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout)
    return sorted(p["name"] for p in metadata["packages"] if p.get("publish") != [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tag", help="the release tag, vX.Y.Z")
    parser.add_argument("--crates", action="store_true", help="list the publishable crates")
    args = parser.parse_args()
    if args.crates:
        print("\n".join(publishable_crates()))
        return
    found = versions()
    expected = args.tag.removeprefix("v") if args.tag else found["Cargo.toml [workspace.package]"]
    wrong = {place: v for place, v in found.items() if v != expected}
    if wrong:
        for place, version in wrong.items():
            print(f"versions: {place} says {version}, expected {expected}", file=sys.stderr)
        raise SystemExit(1)
    print(f"versions: all {len(found)} places say {expected}")


if __name__ == "__main__":
    main()
