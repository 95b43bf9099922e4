/**
 * The after-tool callbacks of a call the page ran: they see its arguments
 * and its result (or error) and may replace the result by returning a value,
 * which enters the session and the next prompt as plain JSON data.
 */
import { plain } from '../callback-value';
import { runCallback } from '../run-callback';
import type { CallProcessor } from '../types';

export const afterTool: CallProcessor = async (inv, _turn, call) => {
  if (!call.ran || !call.response || !inv.hooks.has.afterTool) return;
  const { id, name } = call.call;
  const { response, error } = call.response.response;
  const replaced = await runCallback(
    inv,
    () =>
      inv.hooks.afterTool({
        callId: id,
        name,
        args: call.args,
        result: error === undefined ? response : undefined,
        error,
      }),
    'afterTool',
  );
  if (replaced === undefined) return;
  call.response = {
    response: { id, name, response: plain(replaced, 'afterTool', 'its value') },
    ms: call.response.ms,
    final: call.declaration!.returnDirect,
    longRunning: call.declaration!.longRunning,
  };
};
