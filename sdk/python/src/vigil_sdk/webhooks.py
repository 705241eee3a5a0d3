"""Standard Webhooks signature verification, as Vigil signs its deliveries.

`webhook-signature` holds one or more space-separated `v1,<base64 HMAC-SHA256>` signatures of
`{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64 secret after `whsec_`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from collections.abc import Mapping

DEFAULT_TOLERANCE_SECONDS = 300


class WebhookVerificationError(Exception):
    """The delivery is not signed by this secret, or is too old or too new to trust."""


def verify_webhook(
    secret: str,
    headers: Mapping[str, str],
    body: bytes | str,
    *,
    tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS,
    now: float | None = None,
) -> None:
    """Returns when the delivery is authentic; raises WebhookVerificationError otherwise.

    Pass the raw body exactly as received: a re-serialised JSON object would not match.
    """
    lower = {k.lower(): v for k, v in headers.items()}
    msg_id = lower.get("webhook-id")
    timestamp = lower.get("webhook-timestamp")
    signatures = lower.get("webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header")
    try:
        sent_at = int(timestamp)
    except ValueError as error:
        raise WebhookVerificationError("webhook-timestamp is not a number of seconds") from error
    current = time.time() if now is None else now
    # A replayed old delivery, or one from a clock far ahead, is refused even with a good signature.
    if abs(current - sent_at) > tolerance_seconds:
        raise WebhookVerificationError("webhook-timestamp is outside the tolerance")
    key = base64.b64decode(secret.removeprefix("whsec_"))
    payload = body.encode("utf-8") if isinstance(body, str) else body
    signed = msg_id.encode("utf-8") + b"." + timestamp.encode("utf-8") + b"." + payload
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode("ascii")
    for candidate in signatures.split(" "):
        version, _, value = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return
    raise WebhookVerificationError("no webhook-signature matches")
