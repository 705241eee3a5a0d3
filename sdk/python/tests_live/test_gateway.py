"""Against a running gateway: VIGIL_API_URL and VIGIL_API_KEY (web/e2e/sdks.e2e.ts sets them)."""

import json
import os
from pathlib import Path

import pytest

from vigil_sdk import VigilClient, VigilProblem, models, verify_webhook

VECTOR = json.loads((Path(__file__).parents[2] / "webhook-test-vector.json").read_text())


@pytest.fixture(scope="module")
def vigil():
    url, key = os.environ.get("VIGIL_API_URL"), os.environ.get("VIGIL_API_KEY")
    assert url and key, "set VIGIL_API_URL and VIGIL_API_KEY to a running gateway and a client's API key"
    return VigilClient(url, key)


def test_screens_a_name_into_the_generated_model(vigil):
    answer = vigil.screen(models.ApiV1ScreenPostRequest(name="Nicolas Maduro Moros", nationality="VE"))
    assert isinstance(answer, models.ApiV1ScreenPostResponse)
    assert answer.match is True and answer.results
    assert answer.listVersions and answer.algorithm


def test_a_bad_request_is_a_typed_problem(vigil):
    with pytest.raises(VigilProblem) as raised:
        vigil.screen({"name": "Jane Doe", "dateOfBirth": "23 November 1962"})
    assert (raised.value.status, raised.value.code) == (400, "VALIDATION_FAILED")
    assert any(error.pointer == "/dateOfBirth" for error in raised.value.errors)


def test_verifies_a_webhook_signature():
    verify_webhook(VECTOR["secret"], VECTOR["headers"], VECTOR["body"], now=VECTOR["now"])
