"""The bot-and-program platform under /api/v1: game export, protocol schemas, bot
accounts, NDJSON streams,
personal API tokens."""

from __future__ import annotations

from fastapi import APIRouter

from app.accounts.bot_routes import router as bot_router
from app.accounts.token_routes import router as token_router
from app.api.schema_routes import router as schema_router
from app.api.stream_routes import router as stream_router
from app.db.one_hop import OneHopRoute
from app.match.export_routes import router as export_router

router = APIRouter(route_class=OneHopRoute)
router.include_router(export_router)
router.include_router(schema_router)
router.include_router(bot_router)
router.include_router(stream_router)
router.include_router(token_router)
