// Two Editor.js tools ship without type declarations; both are block tools.
declare module '@editorjs/checklist' {
  import type { BlockToolConstructable } from '@editorjs/editorjs';
  const Checklist: BlockToolConstructable;
  export default Checklist;
}

declare module '@editorjs/raw' {
  import type { BlockToolConstructable } from '@editorjs/editorjs';
  const Raw: BlockToolConstructable;
  export default Raw;
}
