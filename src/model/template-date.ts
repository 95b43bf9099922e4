/**
 * The date a chat template prints (Llama 3.x's "Today Date: 26 Jul 2024",
 * strftime's "%d %b %Y"), taken once per engine: a prompt that changed at
 * midnight would lose the engine's cache.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function templateDate(now: Date): string {
  return `${String(now.getDate()).padStart(2, '0')} ${MONTHS[now.getMonth()]} ${now.getFullYear()}`;
}
