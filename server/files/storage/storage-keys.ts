/** Where transformed copies of a file are cached, next to its content: `.transforms/<id>/`. */
export function transformsPrefix(id: string): string {
  return `.transforms/${id}/`;
}
