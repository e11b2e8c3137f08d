"""Hypothesis profiles (DESIGN.md): ``ci`` is derandomized and bounded, ``dev`` and
``thorough`` explore more.  Select with HYPOTHESIS_PROFILE=dev|thorough; CI uses ``ci``."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=40, derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "thorough", max_examples=1000, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
