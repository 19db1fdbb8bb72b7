"""Lighthouse (npm ``lighthouse``, pinned in package-lock.json; mobile preset, Debian Chromium)
over the site's pages: performance, accessibility, best practices and SEO, each page's layout
shift, largest paint, blocking time and bytes.

Starts a server per checkout (uvicorn, a fresh SQLite file, bots off), makes the pages' data
through the API (tests/browser/tour.py: a live match of each game, a finished one, a tournament,
a profile, a seek in the lobby), then runs Lighthouse page by page. ``--root`` adds another
checkout (e.g. a worktree of main) measured in the same run, as the baseline: the two servers
are measured alternately, page by page, so the machine's load falls on both alike.

    npm ci
    .venv/bin/python bench/lighthouse.py --runs 3
    .venv/bin/python bench/lighthouse.py --runs 3 --root /path/to/main-worktree
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games import registry  # noqa: E402
from tests.browser.tour import make_tour  # noqa: E402
from tests.databases import sqlite_database  # noqa: E402
from tests.live.server import free_port  # noqa: E402

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
PAGES = ("home", "lobby", *(f"match-{game}" for game in registry.ids()), "watch", "rules",
         "rules-game", "tournament", "profile", "analysis", "analysis-board")
TARGET = 95
STARTUP_SECONDS = 180  # importing the app takes tens of seconds on a loaded machine


@contextlib.contextmanager
def server(root: Path, folder: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """A server of the checkout at ``root`` with the tour's data: its base URL and pages."""
    port = free_port()
    env = {**os.environ, "STEPWELL_DATABASE_URL": sqlite_database(folder / "lighthouse.db"),
           "STEPWELL_SECRET_KEY": "lighthouse", "STEPWELL_BOTS_ENABLED": "false",
           "STEPWELL_RATE_LIMIT_SCALE": "0"}
    env.pop("STEPWELL_REDIS_URL", None)
    log = (folder / "server.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:create_app", "--factory", "--app-dir", str(root),
         "--host", "127.0.0.1", "--port", str(port), "--no-access-log"],
        cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not _answers(base):
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(f"the server of {root} did not start: {log.name}")
            time.sleep(0.2)
        tour = make_tour(base, "lh")
        pages = dict(tour.pages)
        pages["lobby"] = "/#lobby"
        yield base, pages
    finally:
        process.terminate()
        process.wait(timeout=30)


def _answers(base: str) -> bool:
    try:
        return httpx.get(f"{base}/api/v1/games", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def lighthouse(url: str, folder: Path) -> dict[str, Any]:
    """One Lighthouse run (mobile, the default preset): scores and the metrics that explain them."""
    out = folder / "report.json"
    subprocess.run(
        [str(LIGHTHOUSE), url, "--output=json", f"--output-path={out}", "--quiet",
         f"--only-categories={','.join(CATEGORIES)}",
         "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking"],
        check=True, env={**os.environ, "CHROME_PATH": CHROME}, timeout=180)
    report = json.loads(out.read_text())
    audits = report["audits"]
    failed = sorted(key for key, audit in audits.items()
                    if audit.get("score") is not None and audit["score"] < 0.9
                    and audit.get("scoreDisplayMode") in ("binary", "numeric", "metricSavings"))
    return {
        **{name: round(100 * (report["categories"][name]["score"] or 0)) for name in CATEGORIES},
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "lcp": audits["largest-contentful-paint"]["numericValue"],
        "tbt": audits["total-blocking-time"]["numericValue"],
        "kib": audits["total-byte-weight"]["numericValue"] / 1024,
        "requests": len(audits["network-requests"]["details"]["items"]),
        "failed": failed,
    }


def median(runs: list[dict[str, Any]]) -> dict[str, Any]:
    keys = [key for key in runs[0] if key != "failed"]
    row: dict[str, Any] = {key: statistics.median(run[key] for run in runs) for key in keys}
    row["failed"] = sorted({audit for run in runs for audit in run["failed"]})
    return row


def table(rows: dict[tuple[str, str], dict[str, Any]]) -> str:
    lines = ["| checkout | page | perf | a11y | best pr. | SEO | CLS | LCP ms | TBT ms | KiB | requests |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for (label, page), row in rows.items():
        lines.append(f"| {label} | {page} | {row['performance']:.0f} | {row['accessibility']:.0f} | "
                     f"{row['best-practices']:.0f} | {row['seo']:.0f} | {row['cls']:.3f} | "
                     f"{row['lcp']:.0f} | {row['tbt']:.0f} | {row['kib']:.0f} | {row['requests']:.0f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="runs per page (the median is shown)")
    parser.add_argument("--root", type=Path, action="append", default=[],
                        help="another checkout to measure in the same run (repeatable)")
    parser.add_argument("--pages", default=",".join(PAGES))
    args = parser.parse_args(argv)
    if not LIGHTHOUSE.exists():
        sys.exit(f"{LIGHTHOUSE} is missing: run `npm ci`")
    checkouts = {"this": ROOT, **{root.name: root.resolve() for root in args.root}}
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        servers = {}
        for label, root in checkouts.items():
            folder = Path(tmp) / label
            folder.mkdir()
            servers[label] = stack.enter_context(server(root, folder))
        for page in args.pages.split(","):
            runs: dict[str, list[dict[str, Any]]] = {label: [] for label in checkouts}
            for _ in range(args.runs):
                for label, (base, pages) in servers.items():
                    runs[label].append(lighthouse(base + pages[page], Path(tmp)))
            for label in checkouts:
                rows[label, page] = median(runs[label])
                row = rows[label, page]
                low = [name for name in CATEGORIES if row[name] < TARGET]
                print(f"{label:>8} {page:<15} " + " ".join(f"{row[name]:3.0f}" for name in CATEGORIES)
                      + f"  CLS {row['cls']:.3f}" + (f"  below {TARGET}: {low}; audits {row['failed']}"
                                                      if low else ""), flush=True)
    print()
    print(table(rows))


if __name__ == "__main__":
    main()
