"""The transfer's pages and API, as a router the site includes.

``GET /transfer``: make a code (for this browser's games) or type one (to bring games here). ``POST /api/transfer``:
a new code, its link and QR code. ``GET /transfer/{code}``: the link's page, which asks before anything changes
(a link preview fetched by a chat program uses nothing). ``POST /api/transfer/redeem`` with ``{"code": …}``: this
browser takes the player token the code was made for.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final

import segno
from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ohhell.transfer.store import LIFETIME, TransferStore, normal_code
from ohhell.web import identity
from ohhell.web.config import ServerConfig
from ohhell.web.database import database_back
from ohhell.web.pages import feature_templates

HERE: Final = Path(__file__).parent
MINUTES: Final = int(LIFETIME.total_seconds() // 60)
UNKNOWN: Final = (
    "This transfer code does not work: it was used already, it is older than"
    f" {MINUTES} minutes, or it was mistyped. Make a new one on the device that has your games."
)


class RedeemRequest(BaseModel):
    """The code typed or carried by the link."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    code: str = Field(min_length=1, max_length=40)


def transfer_router(config: ServerConfig) -> APIRouter:
    holder: dict[str, TransferStore] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        holder["store"] = TransferStore(config.database_url)
        database_back(app).append(holder["store"].reconnect)
        try:
            yield
        finally:
            await holder["store"].close()

    router = APIRouter(lifespan=lifespan)
    templates = feature_templates(HERE / "templates")

    def page(request: Request, **context: Any) -> HTMLResponse:
        return templates.TemplateResponse(request, "transfer.html", {"minutes": MINUTES, **context})

    @router.get("/transfer", response_class=HTMLResponse)
    async def transfer_page(request: Request) -> HTMLResponse:
        return page(request, code=None)

    @router.get("/transfer/{code}", response_class=HTMLResponse)
    async def link_page(request: Request, code: str) -> HTMLResponse:
        return page(request, code=code if normal_code(code) else None, bad_link=normal_code(code) is None)

    @router.post("/api/transfer", status_code=201)
    async def make_code(request: Request) -> dict[str, Any]:
        token = identity.cookie_token(request.scope)
        if token is None:
            raise HTTPException(400, "This browser has no games yet: open the home page first.")
        code, expires = await holder["store"].create(token)
        url = f"{str(request.base_url).rstrip('/')}/transfer/{code}"
        qr = segno.make(url, error="m").svg_inline(scale=4, dark="#173223", title="QR code of the transfer link")
        return {"code": code, "url": url, "qr_svg": qr, "expires": expires.isoformat(), "minutes": MINUTES}

    @router.post("/api/transfer/redeem")
    async def redeem(request: Request, body: RedeemRequest) -> JSONResponse:
        token = await holder["store"].redeem(body.code)
        if token is None or not identity.valid_token(token):
            raise HTTPException(404, UNKNOWN)
        answer = JSONResponse({"ok": True, "url": "/"})
        answer.set_cookie(
            identity.COOKIE, token, max_age=identity.COOKIE_MAX_AGE, path="/", httponly=True, samesite="lax"
        )
        return answer

    return router
