import type { API, BlockAPI, BlockTool, BlockToolConstructorOptions } from '@editorjs/editorjs';

/** An image block's data, as Editor.js's image tool stores it (`file.url`), with the library file's id beside it. */
export interface LibraryImageData {
  file?: { url: string; fileId?: string; width?: number | null; height?: number | null };
  caption?: string;
  withBorder?: boolean;
  stretched?: boolean;
  withBackground?: boolean;
}

/** What the editor hands the tool: a way to pick a library image, and its texts. */
export interface LibraryImageConfig {
  pick: () => Promise<LibraryImageData['file'] | null>;
  /** Called once a picked picture is drawn, for the editor to hand the blocks to the form without Editor.js's delay. */
  picked: () => void;
  labels: { choose: string; caption: string };
}

const ICON = '<svg width="17" height="15" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"><rect x="3" y="4" width="18" height="16" rx="2"/><circle cx="8.5" cy="9.5" r="1.5"/><path d="m21 16-5-5-8 8"/></svg>';

/**
 * The block editor's `image` tool: a picture from the file library (the admin's picker, uploads included)
 * with a caption. Editor.js's own image tool uploads from the computer only; this one stores the same
 * data shape (`{ file: { url }, caption, withBorder, stretched, withBackground }`), `url` being `/assets/<id>`.
 */
export class LibraryImageTool implements BlockTool {
  static get toolbox() {
    return { title: 'Image', icon: ICON };
  }

  static get isReadOnlySupported() {
    return true;
  }

  private data: LibraryImageData;
  private readonly config: LibraryImageConfig;
  private readonly api: API;
  private readonly block: BlockAPI;
  private readonly readOnly: boolean;
  private readonly wrapper: HTMLDivElement;
  private caption: HTMLDivElement | null = null;

  constructor({ data, config, api, block, readOnly }: BlockToolConstructorOptions<LibraryImageData, LibraryImageConfig>) {
    this.data = data ?? {};
    this.config = config as LibraryImageConfig;
    this.api = api;
    this.block = block;
    this.readOnly = readOnly;
    this.wrapper = document.createElement('div');
    this.wrapper.className = 'tessera-image-block';
  }

  render(): HTMLElement {
    this.wrapper.replaceChildren();
    if (this.data.file?.url) this.drawImage();
    else if (!this.readOnly) this.drawChooser();
    return this.wrapper;
  }

  private drawChooser(): void {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = this.api.styles.button;
    button.textContent = this.config.labels.choose;
    button.dataset.testid = 'block-image-choose';
    button.addEventListener('click', async () => {
      const file = await this.config.pick();
      if (!file) return;
      this.data = { ...this.data, file };
      this.render();
      // Said outright: Editor.js did not report the redrawn block, and the picture was left out of the saved blocks.
      this.block.dispatchChange();
      this.config.picked();
    });
    this.wrapper.append(button);
  }

  private drawImage(): void {
    const image = document.createElement('img');
    image.src = this.data.file?.url ?? '';
    image.style.maxWidth = '100%';
    image.style.display = 'block';
    const caption = document.createElement('div');
    caption.className = `${this.api.styles.input} tessera-image-caption`;
    caption.contentEditable = this.readOnly ? 'false' : 'true';
    caption.dataset.placeholder = this.config.labels.caption;
    // The caption is inline HTML the editor sanitised on load (block-data.ts).
    caption.innerHTML = this.data.caption ?? '';
    this.caption = caption;
    this.wrapper.append(image, caption);
  }

  save(): LibraryImageData {
    return { withBorder: false, stretched: false, withBackground: false, ...this.data, caption: this.caption?.innerHTML ?? this.data.caption ?? '' };
  }

  /** A block without a picture is dropped when saving. */
  validate(data: LibraryImageData): boolean {
    return Boolean(data.file?.url);
  }
}
