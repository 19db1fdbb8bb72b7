"""Text with NUL that reaches PostgreSQL is the client's error (422 ``invalid_text``), whatever
route let it through: found by schemathesis as a 500 on POST /api/v1/tokens."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.exc import DataError

from app.http.errors import install_error_handlers


def _app(message: str) -> FastAPI:
    app = FastAPI()
    install_error_handlers(app)

    @app.post("/api/v1/echo")
    def echo() -> None:
        raise DataError("INSERT …", {}, ValueError(message))

    return app


def test_nul_refused_by_postgresql_is_a_422() -> None:
    app = _app("PostgreSQL text fields cannot contain NUL (0x00) bytes")
    response = TestClient(app, raise_server_exceptions=False).post("/api/v1/echo")
    assert response.status_code == 422 and response.json()["code"] == "invalid_text"


def test_other_data_errors_stay_server_errors() -> None:
    app = _app("value too long for type character varying(60)")
    response = TestClient(app, raise_server_exceptions=False).post("/api/v1/echo")
    assert response.status_code == 500 and response.json()["code"] == "internal_error"
