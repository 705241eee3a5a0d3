import json
from pathlib import Path

import pytest

from vigil_sdk import WebhookVerificationError, verify_webhook

VECTOR = json.loads((Path(__file__).parents[2] / "webhook-test-vector.json").read_text())


def verify(**changes):
    args = {"headers": VECTOR["headers"], "body": VECTOR["body"], "now": VECTOR["now"], **changes}
    verify_webhook(VECTOR["secret"], args["headers"], args["body"], now=args["now"])


def test_accepts_the_shared_vector_signed_by_the_monitoring_service_signer():
    verify()
    verify(body=VECTOR["body"].encode("utf-8"))


def test_refuses_a_changed_body():
    with pytest.raises(WebhookVerificationError, match="no webhook-signature matches"):
        verify(body=VECTOR["body"].replace("review", "clear"))


def test_refuses_a_delivery_older_than_the_tolerance():
    with pytest.raises(WebhookVerificationError, match="tolerance"):
        verify(now=int(VECTOR["headers"]["webhook-timestamp"]) + VECTOR["toleranceSeconds"] + 1)


def test_refuses_another_secret():
    with pytest.raises(WebhookVerificationError):
        verify_webhook("whsec_" + "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFB", VECTOR["headers"], VECTOR["body"], now=VECTOR["now"])
