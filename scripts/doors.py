"""Print every door of the app with its scope: the table of docs/security.md."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.http.inventory import markdown
from app.kernel.settings import Settings
from app.main import create_app

if __name__ == "__main__":
    print(markdown(create_app(Settings(secret_key="inventory"))), end="")
