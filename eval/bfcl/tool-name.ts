/**
 * A BFCL function's name as a tool is named. Tool names cannot hold dots
 * (ours, like OpenAI's, are /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/), so `math.gcd`
 * is offered as `math_gcd`. BFCL does the same for such models and then
 * expects the underscored name in their calls (convert_func_name in
 * ast_checker.py, convert_to_tool in model_handler/utils.py).
 */
export function toolName(bfclName: string): string {
  return bfclName.replace(/\./g, '_');
}
