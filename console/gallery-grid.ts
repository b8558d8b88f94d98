// How a task's images are laid out, shared by the console and the MCP Apps task view so both show a task alike:
// as few columns as let every image be seen at once (two for two to four images, a 2×2 for four; three beyond),
// and a row count the style sheets divide the window's height by, so two rows fit a laptop's and a phone's window.
// Beyond two rows the grid scrolls: the cells keep the size two rows would have. Answers the classes the style
// sheets size the grid by (`gallery columns-2 rows-2`).
export function galleryClass(count: number): string {
  const columns = count <= 1 ? 1 : count <= 4 ? 2 : 3;
  const rows = Math.ceil(Math.max(count, 1) / columns);
  return `gallery columns-${columns} rows-${Math.min(rows, 2)}`;
}
