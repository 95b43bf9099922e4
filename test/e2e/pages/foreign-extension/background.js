// Empty: the test drives this extension's service worker.
