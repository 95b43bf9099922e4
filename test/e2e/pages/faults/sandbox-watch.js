window.result = new Promise((resolve) => addEventListener('message', (event) => resolve(event.data)));
