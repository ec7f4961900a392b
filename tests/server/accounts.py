"""Accounts for the server tests: sign up and sign in through the real forms (with their CSRF token)."""

from __future__ import annotations

import re

import httpx

from server.serving import RunningServer, player

CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def csrf_of(client: httpx.Client, path: str) -> str:
    """The CSRF token the form at ``path`` carries."""
    page = client.get(path)
    page.raise_for_status()
    found = CSRF.search(page.text)
    assert found is not None, f"{path} has no CSRF field"
    return found.group(1)


def post_form(client: httpx.Client, form_page: str, action: str, **fields: str) -> httpx.Response:
    """Post the form of ``form_page`` to ``action`` as a browser would (token included, redirects not followed)."""
    return client.post(action, data={"csrf": csrf_of(client, form_page), **fields})


def signed_up(server: RunningServer, name: str, password: str = "a long secret") -> httpx.Client:
    """A fresh browser that signed up as ``name``."""
    client = player(server)
    response = post_form(client, "/signup", "/signup", name=name, password=password)
    assert response.status_code == 303, response.text
    return client


def signed_in(server: RunningServer, name: str, password: str = "a long secret") -> httpx.Client:
    """A fresh browser that signed in as ``name``."""
    client = player(server)
    response = post_form(client, "/signin", "/signin", name=name, password=password)
    assert response.status_code == 303, response.text
    return client
