"""Sign up, Sign in, Sign out (here or everywhere) and the Account page: rename, new password, delete.

Forms are plain HTML forms (``application/x-www-form-urlencoded``) with labelled fields "Name" and "Password" and
the hidden CSRF token (:mod:`~ohhell.web.accounts.csrf`). A refusal shows the form again with the sentence
beside the field it concerns, and never the password typed. Nothing here logs a request body.

Every way a session ends (Sign out, Sign out everywhere, a new password, deleting the account) and signing up
(whose guest key becomes the account's) closes the sockets that acted through it, on every process, before the
answer is sent (:mod:`~ohhell.web.accounts.sockets`).
"""

from __future__ import annotations

from typing import Any, Final
from urllib.parse import parse_qs

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ohhell.web.accounts import TEMPLATES
from ohhell.web.accounts.csrf import CSRF_FIELD, form_token_ok
from ohhell.web.accounts.sessions import cleared_session_cookie, session_cookie
from ohhell.web.accounts.sockets import OpenSockets
from ohhell.web.accounts.store import Account, AccountError, AccountStore
from ohhell.web.identity import guest_cookie, new_token
from ohhell.web.pages import feature_templates

MAX_FIELD: Final = 512


async def form_fields(request: Request) -> dict[str, str]:
    """The fields of an urlencoded form (the first value of each), after its CSRF token is checked."""
    body = (await request.body()).decode("utf-8", errors="replace")
    fields = {key: values[0][:MAX_FIELD] for key, values in parse_qs(body, keep_blank_values=True).items()}
    if not form_token_ok(request.scope, fields.get(CSRF_FIELD)):
        raise HTTPException(403, "The form has expired or came from another site: open the page again and retry.")
    return fields


def local_path(target: str | None) -> str:
    """Where to go after signing in: a path of this site, never another site's address."""
    if target and target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return "/"


def signed_in(request: Request) -> Account:
    """The request's account (403 for a guest)."""
    account: Account | None = request.state.account
    if account is None:
        raise HTTPException(403, "Sign in first.")
    return account


def account_router(store: AccountStore, sockets: OpenSockets | None = None) -> APIRouter:
    """The account pages over ``store``; ``sockets``: the game's sockets by session, closed when a session ends."""
    open_sockets = sockets if sockets is not None else OpenSockets()
    templates = feature_templates(TEMPLATES)

    router = APIRouter()

    def page(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        return templates.TemplateResponse(request, template, context, status_code=status)

    def signed_in_response(request: Request, account: Account, token: str, target: str) -> Response:
        response = RedirectResponse(local_path(target), status_code=303)
        response.headers.append("set-cookie", session_cookie(token, request.url.scheme == "https"))
        return response

    @router.get("/signup", response_class=HTMLResponse)
    async def signup_page(request: Request, next: str = "/") -> HTMLResponse:
        return page(request, "signup.html", next=local_path(next), error=None, field=None, name="")

    @router.post("/signup", response_model=None)
    async def signup(request: Request) -> Response:
        fields = await form_fields(request)
        name, target = fields.get("name", ""), fields.get("next", "/")
        guest = request.state.guest_player
        if request.state.account is not None:
            return RedirectResponse("/account", status_code=303)
        try:
            account = await store.sign_up(name, fields.get("password", ""), guest)
        except AccountError as exc:
            return page(
                request, "signup.html", 400, next=local_path(target), error=str(exc), field=exc.field, name=name
            )
        token = await store.new_session(account.id)
        # The guest key is the account's now and retired (the store did it), reachable through its sessions only:
        # this browser gets a fresh guest token, any other copy of the old one acts as nobody, and the sockets the
        # old token opened close.
        await open_sockets.end(guests=[guest])
        response = signed_in_response(request, account, token, target)
        response.headers.append("set-cookie", guest_cookie(new_token()))
        return response

    @router.get("/signin", response_class=HTMLResponse)
    async def signin_page(request: Request, next: str = "/") -> HTMLResponse:
        return page(request, "signin.html", next=local_path(next), error=None, name="")

    @router.post("/signin", response_model=None)
    async def signin(request: Request) -> Response:
        fields = await form_fields(request)
        name, target = fields.get("name", ""), fields.get("next", "/")
        address = request.client.host if request.client else "unknown"
        try:
            account = await store.sign_in(name, fields.get("password", ""), address)
        except AccountError as exc:
            return page(request, "signin.html", 400, next=local_path(target), error=str(exc), name=name)
        token = await store.new_session(account.id)
        return signed_in_response(request, account, token, target)

    @router.post("/signout", response_model=None)
    async def signout(request: Request) -> Response:
        await form_fields(request)
        token: str | None = request.state.session_token
        if token is not None:
            await open_sockets.end(sessions=await store.end_session(token))
        response = RedirectResponse("/", status_code=303)
        response.headers.append("set-cookie", cleared_session_cookie())
        return response

    @router.post("/signout-everywhere", response_model=None)
    async def signout_everywhere(request: Request) -> Response:
        await form_fields(request)
        account = signed_in(request)
        await open_sockets.end(sessions=await store.end_all_sessions(account.id))
        response = RedirectResponse("/", status_code=303)
        response.headers.append("set-cookie", cleared_session_cookie())
        return response

    async def account_page_of(request: Request, account: Account, status: int = 200, **context: Any) -> HTMLResponse:
        sessions = await store.session_count(account.id)
        base: dict[str, Any] = {"me": account, "sessions": sessions, "error": None, "field": None, "done": None}
        return page(request, "account.html", status, **{**base, **context})

    @router.get("/account", response_class=HTMLResponse, response_model=None)
    async def account_page(request: Request) -> Response:
        account: Account | None = request.state.account
        if account is None:
            return RedirectResponse("/signin?next=/account", status_code=303)
        return await account_page_of(request, account)

    @router.post("/account/rename", response_model=None)
    async def rename(request: Request) -> Response:
        fields = await form_fields(request)
        account = signed_in(request)
        try:
            account = await store.rename(account.id, fields.get("name", ""))
        except AccountError as exc:
            return await account_page_of(request, account, 400, error=str(exc), field="rename")
        return await account_page_of(request, account, done=f"Your name is {account.name} now.")

    @router.post("/account/password", response_model=None)
    async def new_password(request: Request) -> Response:
        fields = await form_fields(request)
        account = signed_in(request)
        try:
            token, ended = await store.change_password(
                account.id, fields.get("password", ""), fields.get("new_password", "")
            )
        except AccountError as exc:
            return await account_page_of(request, account, 400, error=str(exc), field="password-change")
        await open_sockets.end(sessions=ended)
        response = await account_page_of(
            request, account, done="Your password is changed: every other browser is signed out."
        )
        response.headers.append("set-cookie", session_cookie(token, request.url.scheme == "https"))
        return response

    @router.post("/account/visibility", response_model=None)
    async def visibility(request: Request) -> Response:
        fields = await form_fields(request)
        account = signed_in(request)
        public = fields.get("visibility") == "public"
        await store.set_choices(account.id, public=public)
        account = await store.account(account.id) or account
        said = "Anyone may see your statistics." if public else "Only the members of your clubs see your statistics."
        return await account_page_of(request, account, done=said)

    @router.post("/account/delete", response_model=None)
    async def delete_account(request: Request) -> Response:
        fields = await form_fields(request)
        account = signed_in(request)
        try:
            ended = await store.delete(account.id, fields.get("password", ""))
        except AccountError as exc:
            return await account_page_of(request, account, 400, error=str(exc), field="delete")
        await open_sockets.end(sessions=ended)
        response = RedirectResponse("/account/deleted", status_code=303)
        response.headers.append("set-cookie", cleared_session_cookie())
        return response

    @router.get("/account/deleted", response_class=HTMLResponse)
    async def deleted(request: Request) -> HTMLResponse:
        return page(request, "deleted.html")

    return router
