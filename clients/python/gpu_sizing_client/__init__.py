
""" A client library for accessing GPU sizing and quotation API """
from .client import AuthenticatedClient, Client

__all__ = (
    "AuthenticatedClient",
    "Client",
)
