"""Problems (RFC 9457 application/problem+json) as typed exceptions."""

from __future__ import annotations

from collections.abc import Mapping

from .models import Problem


class VigilError(Exception):
    """Anything the client could not turn into an answer: the network, or a body it cannot read."""


class VigilProblem(VigilError):
    """The gateway answered with a problem: `status` and its stable `code` (the Docs page's Errors tab lists them)."""

    def __init__(self, problem: Problem, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(f"{problem.status} {problem.code}: {problem.detail}")
        self.problem = problem
        self.headers = dict(headers or {})

    @property
    def status(self) -> int:
        return self.problem.status

    @property
    def code(self) -> str:
        return self.problem.code

    @property
    def detail(self) -> str:
        return self.problem.detail

    @property
    def errors(self) -> list:
        """Per-field errors, each with a JSON `pointer` into the request and a `detail`."""
        return list(self.problem.errors or [])

    @property
    def request_id(self) -> str | None:
        return self.problem.requestId or self.headers.get("x-request-id")
