"""Static files under content-hashed names, cached for a year; pages and files gzipped; a page's
module graph preloaded and its plain module paths mapped to the hashed ones; a meta description
on every page; HTML never cached as immutable."""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.kernel.settings import Settings
from app.main import create_app
from app.web.static_files import IMMUTABLE, manifest, static_url
from games import registry
from tests.conftest import make_guest, start_match
from tests.databases import sqlite_database


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:  # type: ignore[no-untyped-def]
    url = sqlite_database(tmp_path / "static.db")
    with TestClient(create_app(Settings(database_url=url, secret_key="k"))) as client:
        yield client


def linked(html: str, rel: str) -> list[str]:
    return re.findall(rf'<link rel="{rel}" href="([^"]+)"', html)


def test_pages_link_hashed_names_that_are_cached_for_a_year(client: TestClient) -> None:
    html = client.get("/").text
    [site_css] = [href for href in linked(html, "stylesheet") if "/css/site." in href]
    assert re.fullmatch(r"/static/css/site\.[0-9a-f]{10}\.css", site_css)
    answer = client.get(site_css)
    assert answer.status_code == 200
    assert answer.headers["cache-control"] == IMMUTABLE == "public, max-age=31536000, immutable"
    assert answer.headers["content-type"].startswith("text/css")
    source = client.get("/static/css/site.css").content
    assert 0 < len(answer.content) < 0.9 * len(source)  # minified under its hashed name


def _imported(path: str, text: str) -> set[str]:
    """The modules a (minified) script imports, as paths in static/."""
    found = set()
    for spec in re.findall(r"""(?:\bfrom|\bimport)\s*["']([^"']+)["']""", text):
        if spec.startswith("/static/"):
            found.add(spec.removeprefix("/static/"))
        elif spec.startswith("."):
            found.add(posixpath.normpath(posixpath.join(posixpath.dirname(path), spec)))
    return found


def _template_literals(text: str) -> list[str]:
    return re.findall(r"`[^`]*`", text)


def test_every_script_served_minified_keeps_its_imports_and_literals(client: TestClient) -> None:
    """Minifying must not change what a module imports (the import map sends those paths to
    hashed names) nor any template literal (text shown on the page)."""
    scripts = [path for path in manifest().hashes if path.endswith(".js")]
    assert len(scripts) > 20
    for path in scripts:
        answer = client.get(static_url(path))
        assert answer.status_code == 200, path
        assert answer.headers["content-type"].startswith("text/javascript"), path
        small, source = answer.text, client.get(f"/static/{path}").text
        assert len(small) <= len(source), path
        assert _imported(path, small) == set(manifest().imports[path]), path
        remaining = iter(_template_literals(source))  # comments may quote code in backticks
        assert all(any(kept == seen for seen in remaining)
                   for kept in _template_literals(small)), path


def test_a_plain_or_outdated_name_is_served_but_revalidated(client: TestClient) -> None:
    plain = client.get("/static/css/site.css")
    assert plain.status_code == 200 and plain.headers["cache-control"] == "no-cache"
    outdated = client.get("/static/css/site.0123456789.css")
    assert outdated.status_code == 200 and outdated.headers["cache-control"] == "no-cache"
    assert outdated.content == plain.content
    assert client.get("/static/css/nosuch.0123456789.css").status_code == 404


def test_static_files_and_pages_are_gzipped_and_pages_are_not_immutable(client: TestClient) -> None:
    for path in (static_url("js/match.js"), static_url("css/site.css"), "/", "/rules"):
        answer = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert answer.headers["content-encoding"] == "gzip", path
        raw = client.get(path, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in raw.headers and answer.content == raw.content
        if path.startswith("/static/"):
            continue
        assert "immutable" not in answer.headers.get("cache-control", "")
        assert "max-age=31536000" not in answer.headers.get("cache-control", "")


def test_the_import_map_sends_every_plain_module_path_to_its_hashed_name(client: TestClient) -> None:
    html = client.get("/").text
    found = re.search(r'<script type="importmap">(.*?)</script>', html)
    assert found and html.index("importmap") < html.index('type="module"')
    table: dict[str, str] = json.loads(found.group(1))["imports"]
    modules = [path for path in manifest().hashes if path.endswith(".js")]
    assert len(modules) > 20 and set(table) == {f"/static/{path}" for path in modules}
    for plain, hashed in table.items():
        assert hashed == static_url(plain) != plain


def test_a_match_page_preloads_its_whole_module_graph(client: TestClient) -> None:
    alice, bob = make_guest(client, "Alice"), make_guest(client, "Bob")
    for game in registry.ids():
        match: dict[str, Any] = start_match(client, alice, bob, game=game)
        html = client.get(f"/m/{match['id']}", headers=alice).text
        preloaded = linked(html, "modulepreload")
        board = static_url(f"games/{game}/board.js")
        assert board in preloaded and static_url("js/kit/index.js") in preloaded
        assert static_url("js/match.js") in preloaded and static_url("js/kit/boards.js") in preloaded
        for module in manifest().graph((f"games/{game}/board.js",)):
            assert static_url(module) in preloaded, module
        assert len(preloaded) == len(set(preloaded))


@pytest.mark.parametrize("path", ["/", "/rules", "/watch", "/leaderboard", "/tournaments", "/login",
                                  "/signup", f"/rules/{registry.ids()[0]}",
                                  f"/analysis/{registry.ids()[0]}"])
def test_every_page_has_a_meta_description_in_its_language(client: TestClient, path: str) -> None:
    descriptions = []
    for lang in ("en", "ja"):
        client.get(f"/lang/{lang}")
        found = re.search(r'<meta name="description" content="([^"]{40,})">', client.get(path).text)
        assert found, (path, lang)
        descriptions.append(found.group(1))
    assert descriptions[0] != descriptions[1]
