"""The page kit every domain's pages use: Jinja templating with the translations (``templating``),
form helpers and the CSRF check (``forms``), display names (``names``), the games' assets and the
scripts' words, and the rules diagrams (``diagrams``).

A shared layer: its modules are its interface (``from app.web.templating import render``); it
exports nothing here (docs/architecture.md).
"""
