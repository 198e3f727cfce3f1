"""Test-wide settings.

In CI (``CI=true``) hypothesis runs derandomized, so a landing is never decided by
the luck of one run; locally it explores new examples every time and keeps failures
in its database.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
