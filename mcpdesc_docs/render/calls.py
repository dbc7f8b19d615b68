"""The calls templates make, without Jinja's questions where the answer is known.

Every call in a template (``{{ permalink(...) }}``, ``{{ url(...) }}``, ``{% call %}``)
goes through ``Context.call``, which asks the callable, and its ``__call__``, whether it
wants the context, the eval context or the environment passed first, then drops the loop
and block variables Jinja hands along. A page makes some seventy calls, most of them to
macros, which always want the eval context (whether ``{% autoescape %}`` is on where they
are called), and to ``url``, which wants nothing: these are called directly, with what
Jinja would pass them. Anything else goes through Jinja's own ``call``, unchanged.
"""

from __future__ import annotations

from typing import Any, TypeVar

import jinja2.runtime
from jinja2.utils import internalcode

_DIRECT: dict[type, bool] = {jinja2.runtime.Macro: True}
"""Callables of these exact types -> whether they take the eval context first (Macro's
``__call__`` is ``pass_eval_context``); they take no context and no environment."""

Class = TypeVar("Class", bound=type)


def called_directly(cls: Class) -> Class:
    """Declare that instances of ``cls`` (exactly, not of subclasses) are called from
    templates with their arguments only: neither the class nor its ``__call__`` uses
    ``pass_context``, ``pass_eval_context`` or ``pass_environment``."""
    _DIRECT[cls] = False
    return cls


class DirectCallContext(jinja2.runtime.Context):
    """Jinja's template context, with ``call`` shortened for the types in ``_DIRECT``
    (Environment.context_class is the hook Jinja gives for this)."""

    @internalcode
    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        takes_eval_context = _DIRECT.get(type(__obj))
        if takes_eval_context is None:
            return super().call(__obj, *args, **kwargs)
        if kwargs:
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
        try:
            if takes_eval_context:
                return __obj(__self.eval_ctx, *args, **kwargs)
            return __obj(*args, **kwargs)
        except StopIteration:  # as Jinja's call: a macro's StopIteration must not end the page's generator
            return __self.environment.undefined(
                "value was undefined because a callable raised a StopIteration exception"
            )


__all__ = ["DirectCallContext", "called_directly"]
