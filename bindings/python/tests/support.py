"""What the binding tests share."""

import unittest

import stride


def needs(*functions):
    """Skips a test, saying so, when the loaded library lacks a C function it uses.

    Only for the functions that stride._lib.PENDING lists; remove the
    decorators when that set is emptied.
    """
    missing = [f for f in functions if not stride.has_function(f)]
    if missing:
        return unittest.skip(f"skipped: {', '.join(missing)} not in this build")
    return lambda test: test
