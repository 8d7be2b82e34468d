/** The toolbar buttons the rich text editor has, by Directus's names (`options.toolbar`), in the options form's order. */
export const RICH_TEXT_TOOLBAR = [
  'undo', 'redo', 'bold', 'italic', 'underline', 'strikethrough', 'subscript', 'superscript',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'alignleft', 'aligncenter', 'alignright', 'alignjustify',
  'indent', 'outdent', 'numlist', 'bullist', 'removeformat', 'selectall', 'blockquote',
  'customLink', 'unlink', 'customImage', 'hr', 'code', 'fullscreen',
] as const;

/** Directus's default toolbar (its `customMedia` has no equivalent here and is skipped when shown). */
export const DEFAULT_TOOLBAR: readonly string[] = ['bold', 'italic', 'underline', 'h1', 'h2', 'h3', 'numlist', 'bullist', 'removeformat', 'blockquote', 'customLink', 'customImage', 'customMedia', 'hr', 'code', 'fullscreen'];
