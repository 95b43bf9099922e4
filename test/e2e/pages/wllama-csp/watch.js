// Loaded first: records every CSP violation the page sees.
window.__violations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.__violations.push(`${event.violatedDirective}: ${event.blockedURI}`);
});
