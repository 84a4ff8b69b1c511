"""The gRPC service: `create_server(address, lexicon_dir, ...) -> (server, port)`."""

from lexicon_service.core.limits import Limits
from lexicon_service.server.server import (
    SERVICE_NAMES,
    LexiconServer,
    TlsConfig,
    create_server,
    install_signal_handlers,
)

__all__ = ["Limits", "LexiconServer", "SERVICE_NAMES", "TlsConfig", "create_server", "install_signal_handlers"]
