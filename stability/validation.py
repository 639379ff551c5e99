"""Deprecated alias of :mod:`stability.study` (the validation study became a package); kept for
one release so that ``from stability.validation import ...`` keeps working. Import from
:mod:`stability.study` instead."""

from __future__ import annotations

from .study import *  # noqa: F401,F403
from .study import __all__  # noqa: F401
