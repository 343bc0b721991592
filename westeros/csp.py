"""The site's Content-Security-Policy (issue 28): django-csp's middleware, with the page's own
websocket origin added to `connect-src`.

The policy itself is `CONTENT_SECURITY_POLICY` in westeros/settings.py. The pages open their
websockets at `ws(s)://<the page's host>/ws/...` (static/js/gameclient.js, tournament_live.js).
CSP Level 3 lets `'self'` match them, but browsers that predate it do not, and a policy cannot
name "this host" otherwise: so each response names the host the request came to, which Django has
already checked against ALLOWED_HOSTS. A request with a host Django refuses gets `'self'` alone.
"""
from __future__ import annotations

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost


def websocket_sources(request) -> list[str]:
    """`ws://host` and `wss://host` for the host the request came to (both: behind a proxy that
    terminates TLS the request itself may not know the page's scheme), or nothing for a refused host."""
    try:
        host = request.get_host()
    except DisallowedHost:
        return []
    return [f"ws://{host}", f"wss://{host}"]


class SiteCSPMiddleware(CSPMiddleware):
    def get_policy_parts(self, request, response, report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only=report_only)
        sockets = websocket_sources(request)
        if sockets:
            update = dict(parts.update or {})
            update["connect-src"] = [*(update.get("connect-src") or ()), *sockets]
            parts.update = update
        return parts
