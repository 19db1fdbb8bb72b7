"""All configuration in one pydantic-settings class, read from the environment (STEPWELL_ prefix
or the bare names DATABASE_URL / REDIS_URL / SECRET_KEY that hosting platforms set)."""

from __future__ import annotations

import secrets
from pathlib import Path

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = PROJECT_ROOT / "data"


def _default_secret_key() -> str:
    """A per-installation secret kept in data/, so cookies survive restarts unconfigured."""
    path = DATA_DIR / "secret_key"
    if path.exists():
        return path.read_text().strip()
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    path.write_text(key)
    path.chmod(0o600)
    return key


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="STEPWELL_", extra="ignore")

    database_url: str = Field(
        default=f"sqlite:///{DATA_DIR / 'stepwell.db'}",
        validation_alias=AliasChoices("STEPWELL_DATABASE_URL", "DATABASE_URL"),
    )
    redis_url: str | None = Field(
        default=None, validation_alias=AliasChoices("STEPWELL_REDIS_URL", "REDIS_URL")
    )
    secret_key: str = Field(
        default_factory=_default_secret_key,
        validation_alias=AliasChoices("STEPWELL_SECRET_KEY", "SECRET_KEY"),
    )
    seek_grace_seconds: float = 30.0
    claim_after_seconds: float = 60.0
    """How long a real-time opponent must be gone before the other player may claim the win."""
    """How long a seek outlives its creator's last open connection."""
    bots_enabled: bool = True
    bot_workers: int = 1
    """Worker processes for bot thinking (kept below the core count so the server stays quick)."""
    secure_cookies: bool = False
    """Set true behind HTTPS so the session cookie is never sent in clear."""
