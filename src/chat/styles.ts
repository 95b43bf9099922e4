/**
 * The chat's own styles, inside its shadow root: the page's CSS cannot reach
 * them, and they cannot reach the page. A page themes the chat through the
 * --inpage-chat-* custom properties below (they cross the shadow boundary;
 * a value may itself be light-dark(light, dark)), or picks a scheme with the
 * `theme` attribute ("light", "dark"; without it the visitor's system
 * preference decides). `::part()` reaches the main pieces: status, scroller,
 * empty, log, after-log, composer, prompt, send, stop.
 */
export const CHAT_CSS: string = `
:host {
  /* Each colour in light and in dark: light-dark() follows the scheme below. */
  --_bg: var(--inpage-chat-bg, light-dark(#f6f7fb, #0f1218));
  --_panel: var(--inpage-chat-panel, light-dark(#ffffff, #151922));
  --_text: var(--inpage-chat-text, light-dark(#1d2433, #e6e9f0));
  --_muted: var(--inpage-chat-muted, light-dark(#5d6679, #9aa3b5));
  --_line: var(--inpage-chat-line, light-dark(#e1e4ec, #2a303c));
  --_accent: var(--inpage-chat-accent, light-dark(#3b5ee6, #7b96ff));
  --_accent-text: var(--inpage-chat-accent-text, light-dark(#ffffff, #0f1218));
  --_user: var(--inpage-chat-user, light-dark(#3b5ee6, #2f4bbd));
  --_user-text: var(--inpage-chat-user-text, #ffffff);
  --_ok: var(--inpage-chat-ok, light-dark(#16875b, #4cc38a));
  --_warn: var(--inpage-chat-warn, light-dark(#a35d05, #f0a14a));
  --_error: var(--inpage-chat-error, light-dark(#c4372c, #ff7a6e));
  --_shadow: var(
    --inpage-chat-shadow,
    0 1px 2px light-dark(rgb(16 24 40 / 0.06), rgb(0 0 0 / 0.25)),
    0 1px 3px light-dark(rgb(16 24 40 / 0.08), rgb(0 0 0 / 0.5))
  );
  --_radius: var(--inpage-chat-radius, 0.9rem);
  --_width: var(--inpage-chat-max-width, 46rem);
  /* The visitor's system decides, unless the page picks one with theme="light" or theme="dark". */
  color-scheme: light dark;
  display: flex;
  flex-direction: column;
  position: relative;
  container-type: inline-size;
  height: 32rem;
  min-height: 0;
  background: var(--_bg);
  color: var(--_text);
  font: var(--inpage-chat-font, 15px/1.5 system-ui, -apple-system, 'Segoe UI', sans-serif);
  box-sizing: border-box;
}
:host([theme='light']) { color-scheme: light; }
:host([theme='dark']) { color-scheme: dark; }
*, *::before, *::after { box-sizing: border-box; }
[hidden] { display: none !important; }
.visually-hidden {
  position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
}
button, textarea {
  font: inherit; color: inherit; border-radius: 0.6rem; border: 1px solid var(--_line);
  background: var(--_panel); padding: 0.45rem 0.75rem;
}
button { cursor: pointer; display: inline-flex; align-items: center; gap: 0.35rem; }
button:hover:not(:disabled) { border-color: color-mix(in srgb, var(--_accent) 50%, var(--_line)); }
button.primary { background: var(--_accent); color: var(--_accent-text); border-color: var(--_accent); font-weight: 600; }
button:disabled { opacity: 0.5; cursor: default; }
:focus-visible { outline: 3px solid var(--_accent); outline-offset: 2px; }
.status {
  display: flex; align-items: center; gap: 0.6rem; padding: 0.4rem 1rem; font-size: 0.85rem;
  color: var(--_muted); border-bottom: 1px solid var(--_line); background: var(--_panel);
}
.status progress { flex: 0 0 8rem; accent-color: var(--_accent); }
.scroller { flex: 1; min-height: 0; overflow-y: auto; padding: 1rem; overscroll-behavior: contain; }
.scroller > * { max-width: var(--_width); margin-inline: auto; }
.log { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: 0.65rem; }
.msg { padding: 0.6rem 0.85rem; border-radius: var(--_radius); overflow-wrap: anywhere; white-space: pre-wrap; }
.msg.user {
  align-self: flex-end; max-width: 85%; background: var(--_user); color: var(--_user-text);
  border-bottom-right-radius: 0.3rem;
}
.msg.user.pending { opacity: 0.7; }
.msg.user.unsent {
  background: color-mix(in srgb, var(--_error) 10%, var(--_panel)); color: inherit;
  border: 1px solid color-mix(in srgb, var(--_error) 35%, var(--_line)); white-space: normal;
}
.msg.user.unsent .unsent-reason { margin: 0.3rem 0; font-size: 0.88rem; }
.msg.model {
  align-self: flex-start; max-width: 92%; background: var(--_panel); border: 1px solid var(--_line);
  box-shadow: var(--_shadow); border-bottom-left-radius: 0.3rem;
}
.msg.model.thought { background: none; border: none; box-shadow: none; padding: 0 0.25rem; }
.msg.model.stopped .text::after { content: ' (stopped)'; color: var(--_muted); }
.msg.status-line { align-self: center; color: var(--_muted); font-size: 0.88rem; padding: 0.1rem 0.5rem; }
.msg.working {
  align-self: flex-start; display: flex; align-items: center; gap: 0.5rem; color: var(--_muted);
  font-size: 0.9rem; padding: 0.2rem 0.25rem;
}
.working-time { font-variant-numeric: tabular-nums; }
.working-dots {
  width: 1.6rem; height: 0.5rem;
  background: radial-gradient(circle closest-side, var(--_accent) 90%, transparent) 0 50% / 0.5rem 0.5rem repeat-x;
  animation: working 1.2s ease-in-out infinite;
}
@keyframes working { 0%, 100% { opacity: 0.35; } 50% { opacity: 1; } }
.msg.error {
  align-self: flex-start; max-width: 92%; background: color-mix(in srgb, var(--_error) 10%, var(--_panel));
  border: 1px solid color-mix(in srgb, var(--_error) 35%, var(--_line)); white-space: normal;
}
.msg.error p { margin: 0 0 0.3rem; }
pre {
  margin: 0.3rem 0 0; white-space: pre-wrap; overflow-wrap: anywhere;
  font: 0.8rem/1.45 ui-monospace, 'SF Mono', Menlo, monospace;
}
.reasoning { font-size: 0.85rem; color: var(--_muted); margin-bottom: 0.3rem; white-space: normal; }
.reasoning summary { cursor: pointer; }
.reasoning p { margin: 0.2rem 0 0; white-space: pre-wrap; }
.msg-actions { display: flex; gap: 0.35rem; margin-top: 0.4rem; white-space: normal; }
.action { font-size: 0.8rem; padding: 0.15rem 0.55rem; color: var(--_muted); background: transparent; }
.card {
  align-self: flex-start; width: min(100%, 30rem); border: 1px solid var(--_line); border-left: 4px solid var(--_muted);
  border-radius: 0.7rem; background: var(--_panel); padding: 0.5rem 0.75rem; font-size: 0.9rem;
}
.card-head { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
.card-name { font-weight: 600; }
.card-state {
  font-size: 0.8rem; padding: 0.05rem 0.5rem; border-radius: 1rem;
  background: color-mix(in srgb, var(--_muted) 16%, transparent);
}
.card-ms { margin-left: auto; color: var(--_muted); font-size: 0.8rem; }
.card-icon::before { content: '⚙'; color: var(--_muted); }
.card-details summary { cursor: pointer; color: var(--_muted); font-size: 0.82rem; margin-top: 0.2rem; }
.card-note:empty, .card-actions:empty { display: none; }
.card-note { margin-top: 0.3rem; }
.card-actions { display: flex; gap: 0.5rem; margin-top: 0.45rem; flex-wrap: wrap; }
.card[data-state='running'] { border-left-color: var(--_accent); }
.card[data-state='running'] .card-icon::before {
  content: '◌'; color: var(--_accent); display: inline-block; animation: spin 1s linear infinite;
}
.card[data-state='approval'] {
  border-left-color: var(--_warn); background: color-mix(in srgb, var(--_warn) 8%, var(--_panel));
}
.card[data-state='approval'] .card-icon::before { content: '?'; color: var(--_warn); font-weight: 700; }
.card[data-state='done'] { border-left-color: var(--_ok); }
.card[data-state='done'] .card-icon::before { content: '✓'; color: var(--_ok); }
.card[data-state='denied'] .card-icon::before, .card[data-state='interrupted'] .card-icon::before { content: '⊘'; }
.card[data-state='interrupted'] { border-left-color: var(--_warn); }
.card[data-state='failed'] { border-left-color: var(--_error); }
.card[data-state='failed'] .card-icon::before { content: '!'; color: var(--_error); font-weight: 700; }
.card[data-state='writing'] { border-left-color: color-mix(in srgb, var(--_accent) 55%, var(--_line)); }
.card[data-state='writing'] .card-icon::before {
  content: '✎'; color: var(--_accent); display: inline-block; animation: working 1.2s ease-in-out infinite;
}
.card[data-state='writing'] .card-details { display: none; }
@keyframes spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) {
  .card[data-state='writing'] .card-icon::before, .card[data-state='running'] .card-icon::before, .working-dots {
    animation: none; opacity: 0.7;
  }
}
.flash { animation: flash 1.6s ease-out; }
@keyframes flash { from { background: color-mix(in srgb, var(--_accent) 28%, transparent); } }
.composer {
  display: flex; gap: 0.5rem; align-items: flex-end;
  padding: 0.75rem 1rem calc(0.75rem + env(safe-area-inset-bottom));
  border-top: 1px solid var(--_line); background: var(--_panel);
}
.composer textarea {
  flex: 1; min-width: 0; resize: none; min-height: 2.6rem; max-height: 10rem; line-height: 1.4;
  padding: 0.55rem 0.8rem; border-radius: 1.2rem; background: var(--_bg);
}
.composer button { border-radius: 1.2rem; min-height: 2.6rem; }
.jump { position: absolute; right: 1.25rem; bottom: 5rem; border-radius: 2rem; box-shadow: var(--_shadow); }
@container (max-width: 30rem) {
  .scroller { padding: 0.75rem; }
  .composer { padding-inline: 0.75rem; }
  .msg.user { max-width: 92%; }
}
`;
