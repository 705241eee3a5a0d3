"""Retries against a loopback HTTP server standing in for a gateway that is briefly unavailable."""

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from vigil_sdk import VigilClient, VigilError, VigilProblem

SCREENED = {
    "screeningId": "scr_1",
    "searchedName": "Jane Doe",
    "searchedEmail": None,
    "match": False,
    "blocked": False,
    "status": "clear",
    "topScore": 0.1,
    "label": "No Match",
    "results": [],
    "listVersions": [],
    "algorithm": "vigil-v1",
    "thresholds": {"highScore": 0.9, "mediumScore": 0.7},
    "screenedAt": "2026-11-28T10:00:00.000Z",
}


def serve(answers):
    """Answers each request with the next (status, headers, body); records the requests' headers."""
    seen = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("content-length", 0)))
            seen.append(dict(self.headers))
            status, headers, body = answers[min(len(seen) - 1, len(answers) - 1)]
            data = json.dumps(body).encode()
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, seen


def problem(status, code):
    return {"type": "about:blank", "title": code, "status": status, "detail": code.lower(), "code": code}


def test_retries_503_429_and_an_in_flight_409_with_one_idempotency_key_and_honours_retry_after():
    server, seen = serve(
        [
            (503, {"content-type": "application/problem+json"}, problem(503, "SERVICE_UNAVAILABLE")),
            (429, {"retry-after": "2", "content-type": "application/problem+json"}, problem(429, "RATE_LIMITED")),
            (409, {"retry-after": "1", "content-type": "application/problem+json"}, problem(409, "CONFLICT")),
            (200, {"content-type": "application/json"}, SCREENED),
        ]
    )
    slept = []
    try:
        vigil = VigilClient(f"http://127.0.0.1:{server.server_port}", "k" * 64, sleep=slept.append)
        answer = vigil.screen({"name": "Jane Doe"})
    finally:
        server.shutdown()
    assert answer.status.value == "clear"
    keys = {headers["Idempotency-Key"] for headers in seen}
    assert len(seen) == 4 and len(keys) == 1
    assert slept[1:] == [2.0, 1.0]


def test_gives_up_after_max_retries_with_the_last_problem():
    server, seen = serve([(503, {"content-type": "application/problem+json"}, problem(503, "SERVICE_UNAVAILABLE"))])
    try:
        vigil = VigilClient(f"http://127.0.0.1:{server.server_port}", "k" * 64, max_retries=2, sleep=lambda s: None)
        with pytest.raises(VigilProblem) as raised:
            vigil.screen({"name": "Jane Doe"}, idempotency_key="mine")
    finally:
        server.shutdown()
    assert (raised.value.status, raised.value.code) == (503, "SERVICE_UNAVAILABLE")
    assert [headers["Idempotency-Key"] for headers in seen] == ["mine"] * 3


def test_does_not_retry_a_client_error():
    server, seen = serve([(400, {"content-type": "application/problem+json"}, problem(400, "VALIDATION_FAILED"))])
    try:
        vigil = VigilClient(f"http://127.0.0.1:{server.server_port}", "k" * 64, sleep=lambda s: None)
        with pytest.raises(VigilProblem):
            vigil.screen({"name": ""})
    finally:
        server.shutdown()
    assert len(seen) == 1


def test_retries_network_errors_then_raises():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    slept = []
    vigil = VigilClient(f"http://127.0.0.1:{port}", "k" * 64, max_retries=2, sleep=slept.append)
    with pytest.raises(VigilError, match="after 3 attempts"):
        vigil.screen({"name": "Jane Doe"})
    assert len(slept) == 2
