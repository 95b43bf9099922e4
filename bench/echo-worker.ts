/** A bare worker that answers every message with itself: the floor's postMessage round trip. */
self.onmessage = (event: MessageEvent) => self.postMessage(event.data);
