"""A local package registry holding only this repository's packages.

Serves, on 127.0.0.1, the PyPI "simple" API (PEP 503) for the wheels in one
directory and the npm registry API (packuments and tarballs) for the
`npm pack` tarballs in another, so `pip install`, `uvx`, `npm install` and
`npx` lines run verbatim against what a release would publish. Anything
else is a 404, and every request is logged: a line that would install a
package that is not ours fails and names it.

    python3 registry.py --pypi DIR --npm DIR --port-file FILE --log FILE
"""

import argparse
import base64
import hashlib
import http.server
import json
import re
import tarfile
import threading
import urllib.parse
from pathlib import Path


def normalize(name: str) -> str:
    """PEP 503 name normalisation."""
    return re.sub(r"[-_.]+", "-", name).lower()


def wheel_project(filename: str) -> str:
    return normalize(filename.split("-", 1)[0])


def npm_manifest(tarball: Path) -> dict:
    with tarfile.open(tarball) as tar:
        member = tar.extractfile("package/package.json")
        assert member is not None
        return json.load(member)


class Registry:
    def __init__(self, pypi: Path, npm: Path) -> None:
        self.pypi = pypi
        self.npm = npm
        self.lock = threading.Lock()

    def simple_page(self, project: str, base: str) -> str | None:
        links = []
        for wheel in sorted(self.pypi.iterdir()):
            if wheel.suffix in (".whl", ".gz") and wheel_project(wheel.name) == project:
                digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
                links.append(f'<a href="{base}/pypi/files/{wheel.name}#sha256={digest}">{wheel.name}</a><br>')
        if not links:
            return None
        return "<!DOCTYPE html><html><body>\n" + "\n".join(links) + "\n</body></html>\n"

    def packument(self, name: str, base: str) -> dict | None:
        versions = {}
        for tarball in sorted(self.npm.glob("*.tgz")):
            manifest = npm_manifest(tarball)
            if manifest.get("name") != name:
                continue
            data = tarball.read_bytes()
            manifest["dist"] = {
                "tarball": f"{base}/npm/-/{tarball.name}",
                "shasum": hashlib.sha1(data).hexdigest(),
                "integrity": "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode(),
            }
            manifest["_id"] = f"{name}@{manifest['version']}"
            versions[manifest["version"]] = manifest
        if not versions:
            return None
        latest = sorted(versions, key=lambda v: [int(p) for p in re.findall(r"\d+", v)])[-1]
        return {"name": name, "dist-tags": {"latest": latest}, "versions": versions}


def serve(registry: Registry, port_file: Path, log: Path) -> None:
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

        def reply(self, status: int, body: bytes, kind: str) -> None:
            with registry.lock, log.open("a") as out:
                out.write(f"{status} {self.command} {self.path}\n")
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def do_HEAD(self) -> None:  # noqa: N802
            self.do_GET()

        def do_GET(self) -> None:  # noqa: N802
            base = f"http://{self.headers.get('Host', '127.0.0.1')}"
            path = urllib.parse.unquote(self.path.split("?", 1)[0])
            simple = re.fullmatch(r"/pypi/simple/([^/]+)/?", path)
            if simple:
                page = registry.simple_page(normalize(simple.group(1)), base)
                if page is not None:
                    return self.reply(200, page.encode(), "text/html")
            file = re.fullmatch(r"/pypi/files/([^/]+)", path)
            if file and (registry.pypi / file.group(1)).is_file():
                data = (registry.pypi / file.group(1)).read_bytes()
                return self.reply(200, data, "application/octet-stream")
            tarball = re.fullmatch(r"/npm/-/([^/]+\.tgz)", path)
            if tarball and (registry.npm / tarball.group(1)).is_file():
                data = (registry.npm / tarball.group(1)).read_bytes()
                return self.reply(200, data, "application/octet-stream")
            package = re.fullmatch(r"/npm/((?:@[^/]+/)?[^/@][^/]*)", path)
            if package:
                document = registry.packument(package.group(1), base)
                if document is not None:
                    return self.reply(200, json.dumps(document).encode(), "application/json")
            self.reply(404, b'{"error":"not found: only hashedit-mcp is here"}', "application/json")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port_file.write_text(str(server.server_address[1]))
    server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pypi", type=Path, required=True)
    parser.add_argument("--npm", type=Path, required=True)
    parser.add_argument("--port-file", type=Path, required=True)
    parser.add_argument("--log", type=Path, required=True)
    args = parser.parse_args()
    serve(Registry(args.pypi, args.npm), args.port_file, args.log)


if __name__ == "__main__":
    main()
