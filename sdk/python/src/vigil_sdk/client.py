"""A small client over the generated models: the API key, retries with one Idempotency-Key, typed problems."""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from . import models
from .errors import VigilError, VigilProblem

M = TypeVar("M", bound=BaseModel)

# 429 and 503 say "try again later"; so does a 409 with Retry-After for an Idempotency-Key whose first
# attempt is still running (after a network error, say). Nothing else is retried: a 4xx would fail
# again, a 500 may have run.
RETRYABLE_STATUSES = frozenset({429, 503})


def _retryable(status: int, answer_headers: Mapping[str, str], request_headers: Mapping[str, str]) -> bool:
    if status in RETRYABLE_STATUSES:
        return True
    return status == 409 and "retry-after" in answer_headers and "Idempotency-Key" in request_headers
MAX_RETRY_AFTER_SECONDS = 60.0


class VigilClient:
    """A Vigil API client. Every call answers the generated model of its 2xx body or raises VigilProblem.

    POST requests carry an Idempotency-Key (yours, or a fresh UUID) that every retry repeats, so a
    retried screening is answered once and counted once. Retried: network errors, 429 and 503 (after
    their Retry-After, else an exponential backoff), up to `max_retries` times.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        max_retries: int = 3,
        backoff_seconds: float = 0.5,
        timeout_seconds: float = 30.0,
        headers: Mapping[str, str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not base_url:
            raise ValueError("base_url is required (the address of your Vigil gateway)")
        if not api_key:
            raise ValueError("api_key is required")
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.max_retries = max_retries
        self.backoff_seconds = backoff_seconds
        self.timeout_seconds = timeout_seconds
        self.headers = dict(headers or {})
        self._sleep = sleep

    # The public API v1, typed. Any other operation: request() with the generated model of its answer.

    def screen(
        self,
        request: models.ApiV1ScreenPostRequest | Mapping[str, Any],
        *,
        explain: str | None = None,
        idempotency_key: str | None = None,
    ) -> models.ApiV1ScreenPostResponse:
        """Screens one name (with its date of birth, nationality, type, customer reference) against every list."""
        return self.request(
            "POST",
            "/api/v1/screen",
            body=request,
            query={"explain": explain},
            response_model=models.ApiV1ScreenPostResponse,
            idempotency_key=idempotency_key,
        )

    def screen_payment(
        self,
        request: models.ApiV1ScreenPaymentPostRequest | Mapping[str, Any],
        *,
        idempotency_key: str | None = None,
    ) -> models.ApiV1ScreenPaymentPostResponse:
        """Screens a payment message (ISO 20022 pacs.008/pacs.009/pain.001 XML or MT103 text) field by field."""
        return self.request(
            "POST",
            "/api/v1/screen/payment",
            body=request,
            response_model=models.ApiV1ScreenPaymentPostResponse,
            idempotency_key=idempotency_key,
        )

    def lists(self) -> models.ApiV1ListsGetResponse:
        """The lists screened against, with their current versions."""
        return self.request("GET", "/api/v1/lists", response_model=models.ApiV1ListsGetResponse)

    def request(
        self,
        method: str,
        path: str,
        *,
        body: BaseModel | Mapping[str, Any] | None = None,
        query: Mapping[str, Any] | None = None,
        response_model: type[M],
        idempotency_key: str | None = None,
    ) -> M:
        """Sends one operation of the OpenAPI document and parses its 2xx body into `response_model`."""
        url = self.base_url + path
        params = {k: v for k, v in (query or {}).items() if v is not None}
        if params:
            url += "?" + urllib.parse.urlencode(params)
        headers = {**self.headers, "x-api-key": self.api_key, "accept": "application/json"}
        data = None
        if body is not None:
            payload = body.model_dump(mode="json", exclude_none=True) if isinstance(body, BaseModel) else body
            data = json.dumps(payload).encode("utf-8")
            headers["content-type"] = "application/json"
        if method.upper() == "POST":
            headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        status, answer_headers, raw = self._send_with_retries(method.upper(), url, headers, data)
        if status >= 400:
            raise VigilProblem(_problem(status, raw), answer_headers)
        try:
            return response_model.model_validate_json(raw)
        except ValidationError as error:
            raise VigilError(f"{method} {path} answered {status} with a body off its schema: {error}") from error

    def _send_with_retries(
        self, method: str, url: str, headers: dict[str, str], data: bytes | None
    ) -> tuple[int, dict[str, str], bytes]:
        attempt = 0
        while True:
            try:
                status, answer_headers, raw = self._send(method, url, headers, data)
            except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
                if attempt >= self.max_retries:
                    raise VigilError(f"{method} {url} failed after {attempt + 1} attempts: {error}") from error
                self._sleep(self._backoff(attempt))
                attempt += 1
                continue
            if not _retryable(status, answer_headers, headers) or attempt >= self.max_retries:
                return status, answer_headers, raw
            self._sleep(_retry_after(answer_headers) or self._backoff(attempt))
            attempt += 1

    def _send(self, method: str, url: str, headers: dict[str, str], data: bytes | None):
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_seconds) as answer:
                return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
        except urllib.error.HTTPError as answer:
            with answer:
                return answer.code, {k.lower(): v for k, v in answer.headers.items()}, answer.read()

    def _backoff(self, attempt: int) -> float:
        # Full jitter, so many clients retrying together do not arrive together.
        return random.uniform(0, self.backoff_seconds * 2**attempt)


def _retry_after(headers: Mapping[str, str]) -> float | None:
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return min(max(float(value), 0.0), MAX_RETRY_AFTER_SECONDS)
    except ValueError:
        return None


def _problem(status: int, raw: bytes) -> models.Problem:
    try:
        return models.Problem.model_validate_json(raw)
    except ValidationError:
        # Not from the gateway (a proxy's HTML page, say): still a typed problem with the status.
        text = raw.decode("utf-8", "replace")[:200]
        return models.Problem(type="about:blank", title="HTTP error", status=status, detail=text, code="HTTP_ERROR")
