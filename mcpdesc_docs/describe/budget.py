"""What one ``describe`` run may cost: time, bytes read from the server, primitives listed.

A server is untrusted: it may answer slowly, endlessly or with more than any description
can hold. Every read takes its bytes from one budget, and every wait its time from one
deadline, so a run ends within ``--timeout`` and reads at most ``max_bytes`` in all,
whatever the server does.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from ..errors import UsageError
from ..source.limits import DEFAULT_LIMITS, Limits


class DescribeError(UsageError):
    """The server could not be described (exit 2): one sentence saying why, and the last
    lines the server wrote to its standard error (stdio), which the command prints after."""

    def __init__(self, sentence: str, stderr_lines: tuple[str, ...] = ()) -> None:
        super().__init__(sentence)
        self.stderr_lines = stderr_lines


@dataclass(slots=True)
class Budget:
    timeout: float
    limits: Limits = DEFAULT_LIMITS
    deadline: float = field(init=False)
    bytes_read: int = 0
    lock: threading.Lock = field(init=False, default_factory=threading.Lock)
    """Sessions run side by side, each reading into the one budget."""

    def __post_init__(self) -> None:
        self.deadline = time.monotonic() + self.timeout

    @property
    def max_message_bytes(self) -> int:
        return self.limits.max_bytes

    def remaining(self) -> float:
        """Seconds left; raises DescribeError when none are."""
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise DescribeError(f"no complete answer within {self.timeout:g} s (--timeout bounds the whole run)")
        return left

    def bytes_left(self) -> int:
        return self.limits.max_bytes - self.bytes_read

    def take(self, count: int) -> None:
        """Account for ``count`` bytes read from the server."""
        with self.lock:
            self.bytes_read += count
            over = self.bytes_read > self.limits.max_bytes
        if over:
            raise DescribeError(
                f"the server sent more than {self.limits.max_bytes:,} bytes in all "
                "(limits.max_bytes, the most a description may hold)"
            )

    def too_many_primitives(self, count: int) -> None:
        if count > self.limits.max_primitives:
            raise DescribeError(
                f"the server lists more than {self.limits.max_primitives:,} tools, resources, resource templates "
                "and prompts (limits.max_primitives)"
            )
