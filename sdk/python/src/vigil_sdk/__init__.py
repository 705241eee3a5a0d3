"""Vigil SDK for Python: typed models generated from the gateway's OpenAPI document, a retrying client,
problems as exceptions, and Standard Webhooks verification."""

from . import models
from .client import VigilClient
from .errors import VigilError, VigilProblem
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = ["VigilClient", "VigilError", "VigilProblem", "WebhookVerificationError", "models", "verify_webhook"]
__version__ = "0.1.0"
