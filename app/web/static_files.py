"""static/ served with content-hashed URLs: ``/static/js/match.js`` is linked as
``/static/js/match.<hash>.js``, which browsers may keep for a year without asking again
(``Cache-Control: public, max-age=31536000, immutable``); a changed file gets a new name.

The manifest (each file's hash, and each ES module's static imports) is read once at start: the
files are part of the deployment. Modules import each other by their plain paths
(``./kit/index.js``, ``/static/js/kit/index.js``); the page's import map sends every such path to
the hashed name, so each module is fetched once and shared, and :func:`preload_links` lists a
page's whole module graph for ``<link rel="modulepreload">`` instead of a chain of round trips.
A plain path is still served, with ``Cache-Control: no-cache`` (revalidated by its ETag).

Under its hashed name a script or style sheet is served minified (rjsmin, rcssmin: comments and
spaces out, strings and template literals untouched), about 40 % fewer bytes to parse; the plain
name keeps the source as written, for reading in the browser's tools.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from dataclasses import dataclass
from functools import cache

import rcssmin
import rjsmin
from markupsafe import Markup
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from app.kernel.settings import PROJECT_ROOT

STATIC_DIR = PROJECT_ROOT / "static"
PREFIX = "/static/"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
HASH_LENGTH = 10
_HASHED = re.compile(rf"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{{{HASH_LENGTH}}})(?P<ext>\.[A-Za-z0-9]+)$")
_STATIC_IMPORT = re.compile(
    r"^\s*(?:import\s*|(?:import|export)\b[^;'\"]*?\bfrom\s*)[\"'](?P<spec>[^\"']+)[\"']", re.MULTILINE)


@dataclass(frozen=True)
class Manifest:
    """Every file under static/ (its path relative to it) with its content hash, and the
    modules each ``.js`` file imports statically (as paths relative to static/)."""

    hashes: dict[str, str]
    imports: dict[str, tuple[str, ...]]

    def hashed(self, path: str) -> str:
        """``js/match.js`` -> ``js/match.<hash>.js`` (a path not in static/ stays as it is)."""
        digest = self.hashes.get(path)
        if digest is None:
            return path
        stem, dot, ext = path.rpartition(".")
        return f"{stem}.{digest}.{ext}" if dot else f"{path}.{digest}"

    def plain(self, path: str) -> tuple[str, bool]:
        """A requested path without its hash, and whether the hash is the file's current one."""
        match = _HASHED.match(path)
        if match is None:
            return path, False
        original = match["stem"] + match["ext"]
        if original in self.hashes:
            return original, self.hashes[original] == match["hash"]
        return path, False

    def url(self, path: str) -> str:
        return PREFIX + self.hashed(path.removeprefix(PREFIX))

    def graph(self, entries: tuple[str, ...]) -> list[str]:
        """The entries and every module they import, directly or not (paths in static/)."""
        seen: list[str] = []
        pending = [self.plain(entry.removeprefix(PREFIX))[0] for entry in entries]
        while pending:
            path = pending.pop(0)
            if path in seen or path not in self.hashes:
                continue
            seen.append(path)
            pending.extend(self.imports.get(path, ()))
        return seen


def _imports(path: str, text: str) -> tuple[str, ...]:
    found = []
    for match in _STATIC_IMPORT.finditer(text):
        spec = match["spec"]
        if spec.startswith(PREFIX):
            found.append(spec.removeprefix(PREFIX))
        elif spec.startswith("."):
            found.append(posixpath.normpath(posixpath.join(posixpath.dirname(path), spec)))
    return tuple(found)


@cache
def manifest() -> Manifest:
    hashes, imports = {}, {}
    for file in sorted(STATIC_DIR.rglob("*")):
        if not file.is_file():
            continue
        path = file.relative_to(STATIC_DIR).as_posix()
        content = file.read_bytes()
        hashes[path] = hashlib.sha256(content).hexdigest()[:HASH_LENGTH]
        if path.endswith(".js"):
            imports[path] = _imports(path, content.decode("utf-8"))
    return Manifest(hashes, imports)


def static_url(path: str) -> str:
    """The hashed URL of a file in static/ (``css/site.css`` or ``/static/css/site.css``)."""
    return manifest().url(path)


@cache
def import_map() -> Markup:
    """``<script type="importmap">`` sending every module's plain URL to its hashed one."""
    files = manifest()
    table = {PREFIX + path: files.url(path) for path in files.imports}
    return Markup('<script type="importmap">{}</script>').format(
        Markup(json.dumps({"imports": table}, separators=(",", ":"))))


def preload_links(*entries: str) -> Markup:
    """``<link rel="modulepreload">`` for the entry modules and all they import."""
    files = manifest()
    return Markup("").join(Markup('<link rel="modulepreload" href="{}">').format(files.url(path))
                           for path in files.graph(entries))


MINIFIERS = {".js": ("text/javascript; charset=utf-8", rjsmin.jsmin),
             ".css": ("text/css; charset=utf-8", rcssmin.cssmin)}


@cache
def minified(path: str) -> tuple[bytes, str] | None:
    """A script's or style sheet's minified bytes and media type (read once per process: the
    files are part of the deployment), or None for any other file."""
    kind = MINIFIERS.get(posixpath.splitext(path)[1])
    if kind is None or path not in manifest().hashes:
        return None
    media_type, minify = kind
    text = (STATIC_DIR / path).read_text(encoding="utf-8")
    return minify(text).encode("utf-8"), media_type


class HashedStaticFiles(StaticFiles):
    """StaticFiles that answers hashed names: the current hash is cached for a year, a plain or
    outdated name is served as it is now and revalidated every time."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        original, current = manifest().plain(path)
        small = minified(original) if current else None
        if small is not None and scope["method"] in ("GET", "HEAD"):
            body, media_type = small
            return Response(body if scope["method"] == "GET" else b"", media_type=media_type,
                            headers={"Cache-Control": IMMUTABLE, "Content-Length": str(len(body))})
        response = await super().get_response(original, scope)
        if response.status_code in (200, 304):
            response.headers["Cache-Control"] = IMMUTABLE if current else REVALIDATE
        return response
