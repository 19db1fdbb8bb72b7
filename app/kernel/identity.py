"""Who is calling, as every layer sees it: enough to decide seats and show names, no secret."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

MAX_NAME_LENGTH = 24
"""The longest display name (characters)."""


@dataclass(frozen=True)
class Identity:
    """A user as the request or connection knows them."""

    id: int
    name: str
    kind: str
    scopes: frozenset[str] | None = None
    """A personal token's scopes; None: full access (session, guest and login tokens)."""
    expires_at: datetime | None = None

    def public(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "kind": self.kind}
