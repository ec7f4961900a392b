"""Jinja2 templates for a feature: its own templates first, then the shared ``base.html`` and ``error.html``."""

from __future__ import annotations

from pathlib import Path

import jinja2
from fastapi.templating import Jinja2Templates

from ohhell.web import TEMPLATES


def feature_templates(directory: Path) -> Jinja2Templates:
    """Templates looked up in ``directory``, then in the shared templates (autoescaped)."""
    loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(directory), jinja2.FileSystemLoader(TEMPLATES)])
    return Jinja2Templates(env=jinja2.Environment(loader=loader, autoescape=True))
