/** How many things a request lists: one more than its separators (commas, semicolons, "and", "&", "then", "plus"). */
export function itemsListed(request: string): number {
  return 1 + (request.match(/[,;&]|\b(and|then|plus)\b/gi)?.length ?? 0);
}
