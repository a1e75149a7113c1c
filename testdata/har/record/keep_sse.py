"""mitmproxy addon: pass text/event-stream responses through live AND keep their bytes for the HAR.

Without it mitmproxy buffers a response until it ends, so an SSE stream that
carries a server-to-client request (which the client must answer before the
stream can end) stalls. Plain `flow.response.stream = True` fixes the stall but
leaves the body empty in the HAR. Here the stream callable forwards each chunk
unchanged and keeps a copy; the copy becomes the response body once the flow
ends (normally, or with an error such as the client hanging up a GET stream).
"""

from mitmproxy import http


class KeepSSE:
    def responseheaders(self, flow: http.HTTPFlow) -> None:
        if not flow.response.headers.get("content-type", "").startswith("text/event-stream"):
            return
        kept = bytearray()

        def tee(chunk: bytes) -> bytes:
            kept.extend(chunk)
            return chunk

        flow.response.stream = tee
        flow.metadata["keep_sse"] = kept

    def response(self, flow: http.HTTPFlow) -> None:
        self._restore(flow)

    def error(self, flow: http.HTTPFlow) -> None:
        self._restore(flow)

    def _restore(self, flow: http.HTTPFlow) -> None:
        kept = flow.metadata.pop("keep_sse", None)
        if kept is not None and flow.response is not None:
            flow.response.raw_content = bytes(kept)


addons = [KeepSSE()]
